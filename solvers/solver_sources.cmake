# Krylov solvers written against the task-graph operators and BLAS (no StarPU calls). Paths
# relative to the repository root; included by the top CMakeLists.txt.
set(QF_SOLVER_C_SOURCES
  solvers/solve.c
  solvers/krylov.c
  solvers/cg.c
  solvers/bicgstab.c
  solvers/gcr.c
  solvers/mr.c
  solvers/sap.c
  solvers/precond.c
  solvers/mg.c
  solvers/multishift.c
  solvers/asqtad_multimass.c)
