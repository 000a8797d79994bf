/* Start fields as a graph: one gauge_start task per block, each told its block's global origin. */
#include "quarkflow/qf_gauge.h"
#include "tasks.h"

#include <string.h>

static const char *const start_names[] = {"cold", "weak", "hot"};

const char *qf_gauge_start_name(qf_gauge_start_kind k) { return start_names[k]; }

int qf_gauge_start_parse(const char *s, qf_gauge_start_kind *k)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, start_names[i])) {
            *k = (qf_gauge_start_kind)i;
            return QF_SUCCESS;
        }
    return qf_fail("unknown start field '%s': use cold, weak or hot", s);
}

int qf_gauge_start(qf_field *u, qf_gauge_start_kind kind, uint64_t seed, double eps)
{
    if (u->shape.kind != QF_FIELD_GAUGE) return qf_fail("a start field needs a gauge field, not a %s field", qf_field_kind_name(u->shape.kind));
    if (qf_precision_check_full(u->prec, "the start field's")) return QF_ERROR;
    if (kind == QF_START_WEAK && !(eps >= 0.0 && eps <= 10.0))
        return qf_fail("weak-field noise %g is outside [0, 10]", eps);
    const qf_lattice *lat = u->lat;
    for (int b = 0; b < lat->nblocks; b++)
        if (qf_insert_gauge_start(u, b, kind, seed, eps)) return QF_ERROR;
    return QF_SUCCESS;
}
