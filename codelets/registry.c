/* The table of all quarkflow codelets (codelets.h), kept in one place and handed to the runtime when
 * the library loads (runtime/codelet_table.h), so that what counts tasks by codelet sees every codelet
 * without listing them itself. Labels are column
 * headings: at most 8 characters, so that a table of a solve's kinds stays narrow. Colours are the
 * trace colours of the kinds of work (StarPU writes cl->color into paje.trace and dag.dot): the Dirac
 * stages blue / green / orange, clover purple, BLAS updates olive, reductions red and pink, scalar
 * arithmetic grey, conversions brown, gauge-field work dark blue shades. */
#include "codelets.h"
#include "codelet_table.h"

enum {
    COLOUR_GATHER = 0x1f77b4, COLOUR_INTERIOR = 0x2ca02c, COLOUR_EXTERIOR = 0xff7f0e, COLOUR_CLOVER = 0x9467bd,
    COLOUR_UPDATE = 0xbcbd22, COLOUR_REDUCE = 0xd62728, COLOUR_REDUX = 0xe377c2, COLOUR_SCALAR = 0x7f7f7f,
    COLOUR_CONVERT = 0x8c564b, COLOUR_FACE = 0x17becf, COLOUR_GAUGE = 0x393b79, COLOUR_GAUGE_OBS = 0x6b6ecf,
    COLOUR_TRANSFER = 0xaec7e8, COLOUR_MG_SETUP = 0xc5b0d5, COLOUR_RANDOM = 0xc49c94, COLOUR_COARSE_SOLVE = 0x98df8a
};

static const qf_codelet_entry registry[] = {
    {&qf_cl_wilson_gather, "gather", COLOUR_GATHER},
    {&qf_cl_wilson_interior, "interior", COLOUR_INTERIOR},
    {&qf_cl_wilson_exterior, "exterior", COLOUR_EXTERIOR},
    {&qf_cl_wilson_block, "block", COLOUR_INTERIOR},
    {&qf_cl_wilson_pair, "pair", COLOUR_INTERIOR},
    {&qf_cl_wilson_direct, "direct", COLOUR_INTERIOR},
    {&qf_cl_clover_apply, "cl_apply", COLOUR_CLOVER},
    {&qf_cl_clover_build, "cl_build", COLOUR_CLOVER},
    {&qf_cl_blas_update, "axpby", COLOUR_UPDATE},
    {&qf_cl_blas_reduce, "reduce", COLOUR_REDUCE},
    {&qf_cl_blas_multi, "multi", COLOUR_REDUCE},
    {&qf_cl_blas_shift, "shift", COLOUR_UPDATE},
    {&qf_cl_blas_cg_update, "cg_upd", COLOUR_UPDATE},
    {&qf_cl_blas_bicgstab_update, "bicg_upd", COLOUR_UPDATE},
    {&qf_cl_blas_bicgstab_p, "bicg_p", COLOUR_UPDATE},
    {&qf_cl_chain, "chain", COLOUR_UPDATE},
    {&qf_cl_scalar_op, "scalar", COLOUR_SCALAR},
    {&qf_cl_scalar_trisolve, "trisolve", COLOUR_SCALAR},
    {&qf_cl_data_publish, "publish", COLOUR_SCALAR},
    {&qf_cl_sum_zero, "zero", COLOUR_REDUX},
    {&qf_cl_sum_add, "add", COLOUR_REDUX},
    {&qf_cl_field_zero, "fzero", COLOUR_REDUX},
    {&qf_cl_convert, "convert", COLOUR_CONVERT},
    {&qf_cl_gauge_compress, "compress", COLOUR_CONVERT},
    {&qf_cl_face_copy, "face", COLOUR_FACE},
    {&qf_cl_plaquette, "plaq", COLOUR_GAUGE_OBS},
    {&qf_cl_gauge_start, "start", COLOUR_GAUGE},
    {&qf_cl_staple_face, "staple", COLOUR_GAUGE},
    {&qf_cl_gauge_update, "heatbath", COLOUR_GAUGE},
    {&qf_cl_polyakov_line, "pl_line", COLOUR_GAUGE_OBS},
    {&qf_cl_polyakov_chain, "pl_chain", COLOUR_GAUGE_OBS},
    {&qf_cl_polyakov_trace, "pl_trace", COLOUR_GAUGE_OBS},
    {&qf_cl_plaquette_matrix, "plaq_mat", COLOUR_CLOVER},
    {&qf_cl_leaf_transport, "leaf_tr", COLOUR_CLOVER},
    {&qf_cl_leaf_sum, "leaf_sum", COLOUR_CLOVER},
    {&qf_cl_mg_pack, "mg_pack", COLOUR_MG_SETUP},
    {&qf_cl_mg_orthonormalize, "mg_orth", COLOUR_MG_SETUP},
    {&qf_cl_mg_build, "mg_build", COLOUR_MG_SETUP},
    {&qf_cl_mg_assemble, "mg_asm", COLOUR_MG_SETUP},
    {&qf_cl_mg_restrict, "restrict", COLOUR_TRANSFER},
    {&qf_cl_mg_prolong, "prolong", COLOUR_TRANSFER},
    {&qf_cl_mg_coarse_gather, "c_gather", COLOUR_GATHER},
    {&qf_cl_mg_coarse_interior, "c_inter", COLOUR_INTERIOR},
    {&qf_cl_mg_coarse_exterior, "c_exter", COLOUR_EXTERIOR},
    {&qf_cl_mg_coarse_solve, "c_solve", COLOUR_COARSE_SOLVE},
    {&qf_cl_mg_schur_invert, "c_inv", COLOUR_MG_SETUP},
    {&qf_cl_field_gaussian, "gauss", COLOUR_RANDOM},
    {&qf_cl_field_point, "point", COLOUR_RANDOM},
    {&qf_cl_slice_sums, "slices", COLOUR_GAUGE_OBS},
    {&qf_cl_domain_layout, "dom_lay", COLOUR_CONVERT},
    {&qf_cl_wilson_sap, "sap", COLOUR_INTERIOR},
    {&qf_cl_asqtad_phases, "ks_phase", COLOUR_GAUGE},
    {&qf_cl_asqtad_staple_gather, "ks_sface", COLOUR_FACE},
    {&qf_cl_asqtad_staple, "ks_stapl", COLOUR_GAUGE},
    {&qf_cl_asqtad_long, "ks_naik", COLOUR_GAUGE},
    {&qf_cl_asqtad_ext_fill, "ks_xfill", COLOUR_CONVERT},
    {&qf_cl_asqtad_ext_slabs, "ks_xslab", COLOUR_FACE},
    {&qf_cl_asqtad_ext_smear, "ks_xsmr", COLOUR_GAUGE},
    {&qf_cl_asqtad_gather, "ks_gathr", COLOUR_GATHER},
    {&qf_cl_asqtad_interior, "ks_inter", COLOUR_INTERIOR},
    {&qf_cl_asqtad_exterior, "ks_exter", COLOUR_EXTERIOR},
    {&qf_cl_asqtad_layout, "ks_layout", COLOUR_CONVERT},
    {&qf_cl_task_probe, "probe", COLOUR_SCALAR},
};
/* At load time, before any task exists: the codelets are static structures that every entry point
 * (the command line, a host code through the C API) shares. */
__attribute__((constructor)) static void register_codelets(void)
{
    qf_codelet_table_register(registry, (int)(sizeof registry / sizeof registry[0]), &qf_cl_field_zero);
    qf_codelet_hooks_register(qf_data_publish_start, qf_data_publish_stop);
}
