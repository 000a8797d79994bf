/* The project's complex number: a plain struct so that the same site kernels compile as C11 on CPUs
 * and as C++ under nvcc (C99 _Complex is not available in device code). Arithmetic is in double;
 * single-precision storage is converted on load and store (see su3.h); a float twin serves the few
 * kernels that compute in float. The operations are written once, in complex_kind.h, for these types
 * and for the complex SIMD batches of the CPU Dirac kernels (kernels/kind.h). */
#ifndef QF_COMPLEX_H
#define QF_COMPLEX_H

#include "quarkflow/qf_defs.h"

/* The real type of the scalar kind (kernels/kind.h), and a double as one. */
typedef double qf_real;
static inline QF_HD qf_real qf_real_from(double d) { return d; }

#define QF_K(name) name
#include "complex_kind.h"
#undef QF_K

/* The same in float (suffix _sf): the scalar float kind's (half_float_kind.h), single-precision links'
 * reconstruction (su3.h) and the GPU's half BLAS (blas_units.h). */
typedef float qf_real_sf;
static inline QF_HD qf_real_sf qf_real_from_sf(double d) { return (float)d; }
#define QF_K(name) name##_sf
#include "complex_kind.h"
#undef QF_K

#endif
