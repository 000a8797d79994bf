/* Wilson colour-spinors for site kernels, shared by CPU and CUDA code. A stored site is 24 reals
 * ordered [spin][colour][re, im] in double or single precision; a stored half spinor (a face site)
 * is 12 reals [2 spins][colour][re, im]. The types and their loads, stores and algebra are written
 * once for every site kind (spinor_kind.h, kernels/kind.h); this header sets them up for the scalar
 * kind (qf_spinor, arithmetic in double, as for qf_su3). */
#ifndef QF_SPINOR_H
#define QF_SPINOR_H

#include "kind.h"
#include "su3.h"

#define QF_SPINOR_REALS 24
#define QF_HALF_SPINOR_REALS 12

#define QF_K(name) name
#include "spinor_kind.h"
#undef QF_K

#endif
