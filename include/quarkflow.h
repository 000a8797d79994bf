/* The public C API of quarkflow: what a host code (MILC, Chroma, a test program) includes. */
#ifndef QUARKFLOW_H
#define QUARKFLOW_H

#include "quarkflow/qf_blas.h"
#include "quarkflow/qf_clover.h"
#include "quarkflow/qf_config.h"
#include "quarkflow/qf_defs.h"
#include "quarkflow/qf_dirac.h"
#include "quarkflow/qf_direct.h"
#include "quarkflow/qf_field.h"
#include "quarkflow/qf_gauge.h"
#include "quarkflow/qf_gauge_io.h"
#include "quarkflow/qf_lattice.h"
#include "quarkflow/qf_linop.h"
#include "quarkflow/qf_multigrid.h"
#include "quarkflow/qf_observables.h"
#include "quarkflow/qf_runtime.h"
#include "quarkflow/qf_solver.h"
#include "quarkflow/qf_staggered.h"

#endif
