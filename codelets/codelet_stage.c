/* Codelets bound to argument blocks (qf_codelet_stage, codelets.h), for the stencil builder. */
#include "codelets.h"

#include <stdlib.h>
#include <string.h>

int qf_codelet_stage_bind(qf_codelet_stage *st, struct starpu_codelet *cl, const void *args, size_t size,
                          int origin_offset, const char *name)
{
    *st = (qf_codelet_stage){.cl = cl, .args_size = size, .origin_offset = origin_offset, .name = name};
    if (!(st->args = malloc(size ? size : 1))) return qf_fail("out of host memory binding the arguments of %s", cl->name);
    memcpy(st->args, args, size);
    return QF_SUCCESS;
}

void qf_codelet_stages_free(qf_codelet_stage *st, int n)
{
    for (int k = 0; k < n; k++) {
        free(st[k].args);
        st[k].args = NULL;
    }
}
