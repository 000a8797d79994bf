/* Codelet asqtad_ext_smear: the whole asqtad smearing of one block from its extended links
 * (kernels/staggered.h, seed 002's extended-volume algorithm): every staple step of MILC's order over
 * its region, then the Naik links, with no message. Buffers: R extended links, RW asqtad links (the
 * fat links' one-link start in them), SCRATCH S1, SCRATCH S2 (one matrix an extended site). */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_ext_smear_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_asqtad_ext_args *a;
    const void *e;
    void *s[2], *links;
} smear_cpu;

/* one step's region sites: each writes its own S and fat link from the step before's */
typedef struct {
    const smear_cpu *c;
    const qf_asqtad_ext_step *st;
    int own;
    const void *w;
    void *keep;
} step_job;

static void step_part(void *arg, int64_t first, int64_t end)
{
    const step_job *j = arg;
    for (int64_t t = first; t < end; t++) qf_asqtad_ext_staple_site(j->st, j->own, j->c->e, j->w, j->keep, j->c->links, t);
}

static void long_part(void *arg, int64_t first, int64_t end)
{
    const smear_cpu *c = arg;
    for (int64_t s = first; s < end; s++) qf_asqtad_ext_long_site(c->a->ext, c->a->naik, c->e, c->links, s);
}

static void step_cpu(const smear_cpu *c, int mu, int nu, double coef, int own, int w_from, int keep)
{
    qf_asqtad_ext_step st = {.mu = mu, .nu = nu, .w_stride = w_from ? 1 : QF_NDIM, .w_slot = w_from ? 0 : mu, .coef = coef};
    memcpy(st.ext, c->a->ext, sizeof st.ext);
    int lo[QF_NDIM], R[QF_NDIM];
    qf_asqtad_ext_region(st.ext, own, lo, R);
    step_job j = {c, &st, own, w_from ? c->s[w_from - 1] : c->e, keep ? c->s[keep - 1] : NULL};
    qf_cpu_team_range(c->a->team, qf_volume(R), step_part, &j);
}

static void asqtad_ext_smear_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_ext_args *a = cl_arg;
    smear_cpu c = {a, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                   {(void *)STARPU_VECTOR_GET_PTR(buffers[2]), (void *)STARPU_VECTOR_GET_PTR(buffers[3])},
                   (void *)STARPU_VECTOR_GET_PTR(buffers[1])};
#define STEP(mu, nu, coef, own, w_from, keep) step_cpu(&c, mu, nu, coef, own, w_from, keep)
    QF_ASQTAD_EXT_STEPS(a, STEP);
#undef STEP
    qf_cpu_team_range(a->team, qf_volume(a->ext), long_part, &c);
}

static struct starpu_perfmodel asqtad_ext_smear_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_ext_smear"};

struct starpu_codelet qf_cl_asqtad_ext_smear = {
    .name = "asqtad_ext_smear",
    .cpu_funcs = {asqtad_ext_smear_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_ext_smear_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 4,
    .modes = {STARPU_R, STARPU_RW, STARPU_SCRATCH, STARPU_SCRATCH},
    .model = &asqtad_ext_smear_model,
};

int qf_insert_asqtad_ext_smear(qf_field *links, starpu_data_handle_t e, starpu_data_handle_t s1, starpu_data_handle_t s2,
                               int b, double staple3, double staple5, double staple7, double lepage, double naik)
{
    const qf_lattice *lat = links->lat;
    qf_asqtad_ext_args a = {.staple3 = staple3, .staple5 = staple5, .staple7 = staple7, .lepage = lepage, .naik = naik,
                            .team = qf_cpu_team_shares(lat)};
    memcpy(a.ext, lat->block, sizeof a.ext);
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_asqtad_ext_smear, STARPU_R, e, STARPU_RW, qf_field_block(links, b),
                                   STARPU_SCRATCH, s1, STARPU_SCRATCH, s2, QF_ARGS(a), 0);
    return qf_task_check(ret, "asqtad_ext_smear");
}
