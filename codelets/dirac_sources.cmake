# The Wilson-clover Dirac operator as task graphs (tasks/dirac.c): the gather, interior and exterior
# codelets of the hopping term and their CUDA implementations, the three fused for a block that is its
# own neighbour (wilson_block, whose CUDA part calls their launchers), the two hops of Mhat on one block
# of several (wilson_pair, likewise), the plans of the CPU loops' site geometry (site_plans.c), and its
# Schwarz domain solves (tasks/schwarz.c). Paths relative to the repository root; included by the top
# CMakeLists.txt.
set(QF_DIRAC_C_SOURCES
  codelets/wilson_gather.c
  codelets/wilson_interior.c
  codelets/wilson_exterior.c
  codelets/wilson_block.c
  codelets/wilson_eo_pass.c
  codelets/wilson_pair.c
  codelets/wilson_direct.c
  codelets/site_plans.c
  codelets/domain_layout.c
  codelets/wilson_sap.c
  tasks/dirac.c
  tasks/schwarz.c
  tasks/dirac_linop.c)
set(QF_DIRAC_CUDA_SOURCES
  codelets/wilson_gather.cu
  codelets/wilson_interior.cu
  codelets/wilson_exterior.cu
  codelets/domain_layout.cu
  codelets/wilson_sap.cu)
