/* The project's complex number: a plain struct so that the same site kernels compile as C11 on CPUs
 * and as C++ under nvcc (C99 _Complex is not available in device code). Arithmetic is in double;
 * single-precision storage is converted on load and store (see su3.h). The operations are written
 * once, in complex_kind.h, for this type and for the complex SIMD batches of the CPU Dirac kernels
 * (kernels/kind.h). */
#ifndef QF_COMPLEX_H
#define QF_COMPLEX_H

#include "quarkflow/qf_defs.h"

/* The real type of the scalar kind (kernels/kind.h). */
typedef double qf_real;

#define QF_K(name) name
#include "complex_kind.h"
#undef QF_K

#endif
