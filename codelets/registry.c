/* The table of all quarkflow codelets (codelets.h), kept in one place so that what counts tasks by
 * codelet (runtime/stats.c) sees every codelet without listing them itself. Labels are column
 * headings: at most 8 characters, so that a table of a solve's kinds stays narrow. */
#include "codelets.h"

const qf_codelet_entry qf_codelet_registry[] = {
    {&qf_cl_wilson_gather, "gather"},
    {&qf_cl_wilson_interior, "interior"},
    {&qf_cl_wilson_exterior, "exterior"},
    {&qf_cl_clover_apply, "cl_apply"},
    {&qf_cl_clover_build, "cl_build"},
    {&qf_cl_blas_update, "axpby"},
    {&qf_cl_blas_reduce, "reduce"},
    {&qf_cl_blas_cg_update, "cg_upd"},
    {&qf_cl_blas_bicgstab_update, "bicg_upd"},
    {&qf_cl_scalar_op, "scalar"},
    {&qf_cl_sum_zero, "zero"},
    {&qf_cl_sum_add, "add"},
    {&qf_cl_convert, "convert"},
    {&qf_cl_face_copy, "face"},
    {&qf_cl_plaquette, "plaq"},
    {&qf_cl_gauge_start, "start"},
    {&qf_cl_staple_face, "staple"},
    {&qf_cl_gauge_update, "heatbath"},
    {&qf_cl_polyakov_line, "pl_line"},
    {&qf_cl_polyakov_chain, "pl_chain"},
    {&qf_cl_polyakov_trace, "pl_trace"},
    {&qf_cl_plaquette_matrix, "plaq_mat"},
    {&qf_cl_leaf_transport, "leaf_tr"},
    {&qf_cl_leaf_sum, "leaf_sum"},
};
const int qf_codelet_registry_size = (int)(sizeof qf_codelet_registry / sizeof qf_codelet_registry[0]);
