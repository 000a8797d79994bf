/* Whether the codelets' history-based performance models have been calibrated on this machine: a model
 * with no file in StarPU's sampling directory (STARPU_HOME) has no history, and model-based schedulers
 * (dm, dmda, dmdas ...) calibrate it during the first runs by placing tasks on every worker type to
 * time them, which on a GPU node sends GPU-sized tasks to CPU cores. */
#include "quarkflow/qf_runtime.h"
#include "codelet_table.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int qf_runtime_models_missing(int *total, char *names, size_t size)
{
    int missing = 0;
    size_t used = 0;
    *total = 0;
    if (size) names[0] = '\0';
    for (int c = 0; c < qf_codelet_count(); c++) {
        const struct starpu_codelet *cl = qf_codelet_at(c)->cl;
        if (!cl->model || !cl->model->symbol) continue;
        (*total)++;
        char path[4096];
        starpu_perfmodel_get_model_path(cl->model->symbol, path, sizeof path);
        if (access(path, R_OK) == 0) continue;
        missing++;
        if (used + strlen(cl->name) + 3 < size)
            used += (size_t)snprintf(names + used, size - used, "%s%s", used ? ", " : "", cl->name);
    }
    return missing;
}
