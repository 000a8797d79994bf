# Improved staggered (asqtad) quarks as task graphs (tasks/asqtad_links.c, tasks/asqtad.c;
# include/quarkflow/qf_staggered.h): the link smearing and the operator's codelets and their CUDA
# implementations. Paths relative to the repository root; included by the top CMakeLists.txt.
set(QF_STAGGERED_C_SOURCES
  codelets/asqtad_phases.c
  codelets/asqtad_staple_gather.c
  codelets/asqtad_staple.c
  codelets/asqtad_long.c
  codelets/asqtad_ext_fill.c
  codelets/asqtad_ext_slabs.c
  codelets/asqtad_ext_smear.c
  codelets/asqtad_gather.c
  codelets/asqtad_interior.c
  codelets/asqtad_exterior.c
  codelets/asqtad_layout.c
  tasks/asqtad_links.c
  tasks/asqtad.c)
set(QF_STAGGERED_CUDA_SOURCES
  codelets/asqtad_phases.cu
  codelets/asqtad_staple_gather.cu
  codelets/asqtad_staple.cu
  codelets/asqtad_long.cu
  codelets/asqtad_ext_fill.cu
  codelets/asqtad_ext_slabs.cu
  codelets/asqtad_ext_smear.cu
  codelets/asqtad_gather.cu
  codelets/asqtad_interior.cu
  codelets/asqtad_exterior.cu
  codelets/asqtad_layout.cu)
