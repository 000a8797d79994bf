/* The argument block of one staple step of the asqtad link smearing (kernels/staggered.h), which its two
 * codelets (asqtad_staple_gather, asqtad_staple) share: for links in direction mu and staples in nu, W
 * the link-matrix field w or, with w NULL, the phased links v's mu-th, coef the path coefficient, keep
 * whether the staple is written out. */
#ifndef QF_ASQTAD_STAPLE_ARGS_H
#define QF_ASQTAD_STAPLE_ARGS_H

#include "codelets.h"
#include "kernels/staggered.h"

qf_asqtad_staple_args qf_asqtad_staple_args_make(const qf_field *v, const qf_field *w, int mu, int nu, double coef,
                                                 int keep);

#endif
