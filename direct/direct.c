/* The direct kernels of one even-odd Mhat application (qf_direct.h): the plan (the library's hops
 * with the kernels' arguments tasks/dirac.c gives them, on per-block buffers that hold the task
 * graph's own data, exported from its fields), its run on CPU threads, and its check against the
 * task graph. The GPU runs the same plan in direct_cuda.cu. */
#include "direct_plan.h"

#include "quarkflow/qf_clover.h" /* qf_clover_build: the clover field and its inverse, as qf_dirac_create builds them */
#include "quarkflow/qf_gauge.h"  /* qf_gauge_compress */
#include "quarkflow/qf_observables.h" /* qf_gauge_field_strength */
#include "quarkflow/qf_runtime.h"
#include "mpi_data.h" /* qf_runtime_direct_hops */

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct qf_direct {
    qf_direct_plan plan;
    qf_lattice lat;
    int gpu, device;      /* the GPU path on CUDA device `device`, or CPU threads */
    int nthreads;         /* CPU: one a StarPU CPU worker, bound to its core */
    void **faces;         /* CPU: [block * QF_WILSON_NFACES + k] */
    double bytes;         /* moved by one application, by QUDA's rule */
};

/* ---- per-block buffers in the fields' layout ---- */

static int64_t global_index(const qf_lattice *lat, const int origin[QF_NDIM], int64_t s)
{
    int x[QF_NDIM];
    qf_block_site_coords(s, lat->block, x);
    for (int mu = 0; mu < QF_NDIM; mu++) x[mu] += origin[mu];
    return qf_lex_index(x, lat->global);
}

/* global lexicographic doubles <-> per-block buffers of records of `reals` numbers a site in precision prec */
static void pack(const qf_direct_plan *p, const qf_lattice *lat, const double *global, int reals, void **blocks, int to_blocks)
{
    for (int b = 0; b < p->nblocks; b++)
        for (int64_t s = 0; s < lat->block_volume; s++) {
            double *g = (double *)global + global_index(lat, p->block_origin[b], s) * reals;
            if (to_blocks) qf_record_reals_store(blocks[b], p->prec, (size_t)s, reals, 0, g, reals, QF_HALF_TILES);
            else qf_record_reals_load(blocks[b], p->prec, (size_t)s, reals, 0, g, reals, QF_HALF_TILES);
        }
}

static void **alloc_blocks(int n, size_t bytes)
{
    void **v = calloc((size_t)n, sizeof *v);
    if (!v) return NULL;
    for (int b = 0; b < n; b++)
        if (posix_memalign(&v[b], 64, bytes ? bytes : 64)) {
            for (int k = 0; k < b; k++) free(v[k]);
            free(v);
            return NULL;
        } else {
            memset(v[b], 0, bytes);
        }
    return v;
}

static void free_blocks(void **v, int n)
{
    if (!v) return;
    for (int b = 0; b < n; b++) free(v[b]);
    free(v);
}

static void plan_free(qf_direct_plan *p)
{
    for (int k = 0; k < QF_DIRECT_NSPINORS; k++) free_blocks(p->spinor[k], p->nblocks);
    free_blocks(p->gauge, p->nblocks);
    for (int k = 0; k < 2; k++) free_blocks(p->clover[k], p->nblocks);
    free(p->block_origin);
    free(p->neighbour);
    memset(p, 0, sizeof *p);
}

void qf_direct_plan_hops(qf_direct_plan *p, const qf_lattice *lat, const qf_dirac_params *dp, qf_schur_form form)
{
    qf_dirac_hop h[QF_DIRAC_MAX_HOPS];
    qf_dirac_schur_hops(dp, form, h, &p->nhops);
    for (int k = 0; k < p->nhops; k++) {
        qf_direct_hop_args *hp = &p->hop[k];
        memset(hp, 0, sizeof *hp);
        hp->hop = h[k];
        hp->src = h[k].src, hp->dst = h[k].dst, hp->x = h[k].x;
        hp->clover = h[k].clover_on == QF_CLOVER_NONE ? -1 : h[k].clover_inverse;
        qf_wilson_hop w = qf_wilson_hop_of(&h[k], dp, 0);
        qf_wilson_hop_args(lat, &w, &hp->g, &hp->a);
        hp->direct = qf_wilson_direct_args(&hp->a);
    }
}

double qf_direct_link_bytes(qf_recon recon, qf_precision prec)
{
    return (double)qf_record_bytes(prec, QF_NDIM * qf_recon_link_reals(recon)) / QF_NDIM;
}

double qf_direct_hop_bytes(const qf_dirac_hop *h, qf_recon recon, qf_precision prec)
{
    double spinor = (double)qf_record_bytes(prec, QF_SPINOR_REALS);
    return 8.0 * (qf_direct_link_bytes(recon, prec) + spinor) +
           (h->clover_on != QF_CLOVER_NONE ? (double)qf_record_bytes(prec, QF_CLOVER_REALS) : 0.0) +
           (h->x != QF_HOP_NONE ? spinor : 0.0) + spinor;
}

double qf_direct_mhat_bytes(const qf_dirac_params *p, qf_schur_form form, int64_t global_volume)
{
    qf_dirac_hop h[QF_DIRAC_MAX_HOPS];
    int n = 0;
    qf_dirac_schur_hops(p, form, h, &n);
    double bytes = 0.0;
    for (int k = 0; k < n; k++) bytes += qf_direct_hop_bytes(&h[k], p->recon, p->prec) * (double)global_volume / 2;
    return bytes;
}

static int plan_create(qf_direct_plan *p, const qf_lattice *lat, const qf_dirac_params *dp, qf_schur_form form,
                       const qf_field *gauge, const qf_field *in)
{
    memset(p, 0, sizeof *p);
    p->nblocks = lat->nblocks;
    memcpy(p->blocks, lat->blocks, sizeof p->blocks);
    p->reads_neighbours = qf_runtime_direct_hops(lat);
    p->prec = dp->prec;
    qf_direct_plan_hops(p, lat, dp, form);
    /* as tasks/dirac.c chooses the pass: one block, fused where the fused stage shares the CPUs */
    p->eo_pass = p->nblocks == 1 && p->nhops == 2 && p->hop[1].src == p->hop[0].dst && p->hop[1].x == p->hop[0].src &&
                 qf_wilson_eo_pass_fits(&p->hop[0].a, &p->hop[1].a) && qf_runtime_fuse_blocks();
    /* and on several blocks, where tasks/dirac.c pairs the hops because the pair runs the pass */
    p->block_pass = p->nblocks > 1 && lat->nprocs == 1 && p->nhops == 2 && p->hop[1].src == p->hop[0].dst &&
                    p->hop[1].x == p->hop[0].src && p->hop[0].x < 0 &&
                    qf_wilson_eo_pass_block_fits(&p->hop[0].a, &p->hop[1].a) && qf_runtime_pair_hops(0, 1);
    int nb = p->nblocks;
    p->block_origin = calloc((size_t)nb, sizeof *p->block_origin);
    p->neighbour = calloc((size_t)nb, sizeof *p->neighbour);
    if (!p->block_origin || !p->neighbour) return qf_fail("out of host memory for the benchmark's plan");
    for (int b = 0; b < nb; b++) {
        qf_lattice_block_origin(lat, b, p->block_origin[b]);
        for (int mu = 0; mu < QF_NDIM; mu++) {
            /* exterior slot 2 mu: the -mu neighbour's side-1 face; 2 mu + 1: the +mu neighbour's side 0 */
            p->neighbour[b][2 * mu] = qf_block_neighbour(b, lat->blocks, mu, -1) * QF_WILSON_NFACES + 2 * mu + 1;
            p->neighbour[b][2 * mu + 1] = qf_block_neighbour(b, lat->blocks, mu, +1) * QF_WILSON_NFACES + 2 * mu;
        }
    }
    /* one record a site and a face site: in half, whole tiles (qf_half_layout) */
    size_t sites = (size_t)lat->block_volume;
    p->spinor_bytes = qf_records_bytes(p->prec, QF_HALF_TILES, QF_SPINOR_REALS, sites);
    int link_site_reals = QF_NDIM * qf_recon_link_reals(dp->recon);
    p->gauge_bytes = qf_records_bytes(p->prec, QF_HALF_TILES, link_site_reals, sites);
    p->clover_bytes = qf_records_bytes(p->prec, QF_HALF_TILES, QF_CLOVER_REALS, sites);
    for (int mu = 0; mu < QF_NDIM; mu++)
        p->face_bytes[mu] = qf_records_bytes(p->prec, QF_HALF_TILES, QF_HALF_SPINOR_REALS,
                                             (size_t)qf_parity_face_sites(lat->block, mu, 0));
    for (int k = 0; k < QF_DIRECT_NSPINORS; k++)
        if (!(p->spinor[k] = alloc_blocks(nb, p->spinor_bytes))) return qf_fail("out of host memory for the direct buffers");
    if (!(p->gauge = alloc_blocks(nb, p->gauge_bytes))) return qf_fail("out of host memory for the direct buffers");

    /* the task graph's data, exported: the gauge field in the operator's precision (as qf_dirac_create
     * converts it), the clover field and its inverse (built as qf_dirac_create builds them), the source */
    int64_t vol = lat->global_volume;
    double *g = malloc((size_t)vol * 72 * sizeof *g);
    qf_field *gp = NULL, *gc = NULL, *fmunu = NULL, *cl[2] = {NULL, NULL};
    int rc = !g ? qf_fail("out of host memory exporting the gauge field") : QF_SUCCESS;
    rc = rc || qf_field_create(&gp, lat, QF_FIELD_GAUGE, p->prec, 1) || qf_field_convert(gp, gauge);
    if (dp->recon != QF_RECON_18) { /* the links as qf_dirac_create compresses them */
        qf_field_shape s;
        rc = rc || qf_field_shape_compressed_gauge(&s, dp->recon) || qf_field_create_shaped(&gc, lat, &s, p->prec, 0) ||
             qf_gauge_compress(gc, gauge);
    }
    rc = rc || qf_field_export(gc ? gc : gp, g);
    if (!rc) pack(p, lat, g, link_site_reals, p->gauge, 1);
    if (!rc && dp->csw != 0.0) {
        for (int k = 0; k < 2 && !rc; k++)
            if (!(p->clover[k] = alloc_blocks(nb, p->clover_bytes))) rc = qf_fail("out of host memory for the clover buffers");
        rc = rc || qf_field_create(&fmunu, lat, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE, 0) ||
             qf_field_create(&cl[0], lat, QF_FIELD_CLOVER, p->prec, 0) ||
             qf_field_create(&cl[1], lat, QF_FIELD_CLOVER, p->prec, 0) || qf_gauge_field_strength(gauge, fmunu) ||
             qf_clover_build(fmunu, dp->kappa * dp->csw, cl[0], cl[1]);
        for (int k = 0; k < 2 && !rc; k++) {
            rc = qf_field_export(cl[k], g);
            if (!rc) pack(p, lat, g, 72, p->clover[k], 1);
        }
    }
    rc = rc || qf_field_export(in, g);
    if (!rc) pack(p, lat, g, 24, p->spinor[QF_DIRECT_IN], 1);
    if (gp) qf_field_destroy(gp);
    if (gc) qf_field_destroy(gc);
    if (fmunu) qf_field_destroy(fmunu);
    for (int k = 0; k < 2; k++)
        if (cl[k]) qf_field_destroy(cl[k]);
    free(g);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* ---- the direct kernels on CPUs ---- */

void qf_direct_bind_to_worker_core(int tid)
{
    qf_runtime_bind_thread(qf_runtime_cpu_worker_core(tid), "quarkflow bench thread");
}

typedef struct {
    qf_direct_plan *p;
    void **face;          /* [block * 8 + k], then the same again for the block pass's faces of t */
    int nthreads;
    long iters;
    pthread_barrier_t barrier;
    double seconds;
} cpu_direct;

/* buffer of spinor `id` of block b in application number `it` (input and output swap each time) */
static void *spinor_of(const qf_direct_plan *p, int id, int b, long it)
{
    if ((it & 1) && id != QF_DIRECT_TMP) id = id == QF_DIRECT_IN ? QF_DIRECT_OUT : QF_DIRECT_IN;
    return p->spinor[id][b];
}

/* Hop hp of application `it` on thread tid's blocks, each reading its neighbours' blocks (wilson_direct). */
static void cpu_direct_hops(const qf_direct_plan *p, const qf_direct_hop_args *hp, int tid, int nt, long it)
{
    qf_wilson_args a = hp->direct;
    for (int b = tid; b < p->nblocks; b += nt) {
        qf_wilson_nbrs nbrs;
        for (int mu = 0; mu < QF_NDIM; mu++) {
            for (int dir = 0; dir < 2; dir++)
                nbrs.in[2 * mu + dir] = spinor_of(p, hp->src, qf_block_neighbour(b, p->blocks, mu, dir ? -1 : +1), it);
            nbrs.gauge[mu] = p->gauge[qf_block_neighbour(b, p->blocks, mu, -1)];
        }
        const void *x = hp->x >= 0 ? spinor_of(p, hp->x, b, it) : NULL;
        const void *cl = hp->clover >= 0 ? p->clover[hp->clover][b] : NULL;
        memcpy(a.origin, p->block_origin[b], sizeof a.origin);
        qf_wilson_hops_run(&a, spinor_of(p, hp->dst, b, it), spinor_of(p, hp->src, b, it), p->gauge[b], x, cl, &nbrs);
    }
}

/* One application as wilson_pair's tasks run it on the blocks: the first hop's gathers, each block's
 * pass over its odd sites, the second hop's exteriors from the faces of t the passes wrote. */
static void cpu_block_pass(cpu_direct *c, int tid, long it)
{
    qf_direct_plan *p = c->p;
    const qf_direct_hop_args *h = p->hop;
    void **t_faces = c->face + (size_t)p->nblocks * QF_WILSON_NFACES;
    int nt = c->nthreads;
    for (int b = tid; b < p->nblocks; b += nt)
        qf_wilson_gather_run(&h[0].g, spinor_of(p, h[0].src, b, it), p->gauge[b],
                             c->face + (size_t)b * QF_WILSON_NFACES);
    pthread_barrier_wait(&c->barrier);
    for (int b = tid; b < p->nblocks; b += nt) {
        const void *in_face[QF_WILSON_NFACES];
        for (int k = 0; k < QF_WILSON_NFACES; k++) in_face[k] = c->face[p->neighbour[b][k]];
        qf_wilson_args a[2] = {h[0].a, h[1].a};
        for (int k = 0; k < 2; k++) memcpy(a[k].origin, p->block_origin[b], sizeof a[k].origin);
        qf_wilson_eo_pass_block_run(&a[0], &a[1], spinor_of(p, h[1].dst, b, it), spinor_of(p, h[0].src, b, it),
                                    p->gauge[b], h[0].clover >= 0 ? p->clover[h[0].clover][b] : NULL,
                                    h[1].clover >= 0 ? p->clover[h[1].clover][b] : NULL, in_face,
                                    t_faces + (size_t)b * QF_WILSON_NFACES);
    }
    pthread_barrier_wait(&c->barrier);
    for (int b = tid; b < p->nblocks; b += nt) {
        const void *nbr[QF_WILSON_NFACES];
        for (int k = 0; k < QF_WILSON_NFACES; k++) nbr[k] = t_faces[p->neighbour[b][k]];
        qf_wilson_args a = h[1].a;
        memcpy(a.origin, p->block_origin[b], sizeof a.origin);
        qf_wilson_exterior_run(&a, spinor_of(p, h[1].dst, b, it), p->gauge[b], spinor_of(p, h[1].x, b, it),
                               h[1].clover >= 0 ? p->clover[h[1].clover][b] : NULL, nbr);
    }
    pthread_barrier_wait(&c->barrier);
}

static void *cpu_direct_thread(void *arg_)
{
    qf_direct_thread_arg *arg = arg_;
    cpu_direct *c = arg->c;
    qf_direct_plan *p = c->p;
    int tid = arg->tid, nt = c->nthreads;
    qf_direct_bind_to_worker_core(tid);
    pthread_barrier_wait(&c->barrier);
    double t0 = qf_timing_now();
    for (long it = 0; it < c->iters; it++) {
        if (p->eo_pass) { /* the pass shares its slices with the CPU team itself */
            const qf_direct_hop_args *h = p->hop;
            if (tid == 0)
                qf_wilson_eo_pass_run(&h[0].a, &h[1].a, spinor_of(p, h[1].dst, 0, it), spinor_of(p, h[0].src, 0, it),
                                      p->gauge[0], h[0].clover >= 0 ? p->clover[h[0].clover][0] : NULL,
                                      h[1].clover >= 0 ? p->clover[h[1].clover][0] : NULL);
            pthread_barrier_wait(&c->barrier);
            continue;
        }
        if (p->block_pass) {
            cpu_block_pass(c, tid, it);
            continue;
        }
        for (int h = 0; h < p->nhops; h++) {
            const qf_direct_hop_args *hp = &p->hop[h];
            if (p->reads_neighbours) {
                cpu_direct_hops(p, hp, tid, nt, it);
                pthread_barrier_wait(&c->barrier);
                continue;
            }
            qf_wilson_args a = hp->a;
            const int faces = qf_wilson_has_faces(&a); /* none where the block wraps in every direction */
            for (int b = tid; b < p->nblocks; b += nt) {
                const void *src = spinor_of(p, hp->src, b, it);
                const void *x = hp->x >= 0 ? spinor_of(p, hp->x, b, it) : NULL;
                const void *cl = hp->clover >= 0 ? p->clover[hp->clover][b] : NULL;
                if (faces) qf_wilson_gather_run(&hp->g, src, p->gauge[b], c->face + (size_t)b * QF_WILSON_NFACES);
                memcpy(a.origin, p->block_origin[b], sizeof a.origin);
                qf_wilson_interior_run(&a, spinor_of(p, hp->dst, b, it), src, p->gauge[b], x, cl);
            }
            pthread_barrier_wait(&c->barrier);
            for (int b = tid; b < p->nblocks && faces; b += nt) {
                const void *nbr[QF_WILSON_NFACES];
                for (int k = 0; k < QF_WILSON_NFACES; k++) nbr[k] = c->face[p->neighbour[b][k]];
                const void *x = hp->x >= 0 ? spinor_of(p, hp->x, b, it) : NULL;
                const void *cl = hp->clover >= 0 ? p->clover[hp->clover][b] : NULL;
                memcpy(a.origin, p->block_origin[b], sizeof a.origin);
                qf_wilson_exterior_run(&a, spinor_of(p, hp->dst, b, it), p->gauge[b], x, cl, nbr);
            }
            pthread_barrier_wait(&c->barrier);
        }
    }
    if (tid == 0) c->seconds = qf_timing_now() - t0;
    return NULL;
}

int qf_direct_threads(int n, void *(*fn)(void *), void *c)
{
    pthread_t *th = calloc((size_t)n, sizeof *th);
    qf_direct_thread_arg *args = calloc((size_t)n, sizeof *args);
    if (!th || !args) {
        free(th);
        free(args);
        return qf_fail("out of host memory starting %d threads", n);
    }
    int started = 0, rc = QF_SUCCESS;
    for (int k = 0; k < n; k++) {
        args[k].c = c;
        args[k].tid = k;
        if (pthread_create(&th[k], NULL, fn, &args[k])) {
            rc = qf_fail("could not start thread %d of %d", k + 1, n);
            break;
        }
        started++;
    }
    for (int k = 0; k < started; k++) pthread_join(th[k], NULL);
    free(th);
    free(args);
    return rc;
}

static int cpu_direct_run(void *c_, long iters, double *seconds)
{
    cpu_direct *c = c_;
    c->iters = iters;
    if (pthread_barrier_init(&c->barrier, NULL, (unsigned)c->nthreads)) return qf_fail("pthread_barrier_init failed");
    int rc = qf_direct_threads(c->nthreads, cpu_direct_thread, c);
    pthread_barrier_destroy(&c->barrier);
    *seconds = c->seconds;
    return rc;
}

/* ---- the direct kernels of one Mhat application ---- */

static double rel_diff(const double *a, const double *ref, int64_t n)
{
    double d = 0.0, r = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double e = a[i] - ref[i];
        d += e * e;
        r += ref[i] * ref[i];
    }
    return r > 0 ? sqrt(d / r) : sqrt(d);
}

int qf_direct_path(int *gpu, int *device)
{
    *gpu = 0;
    *device = 0;
#if QF_HAVE_CUDA
    if (qf_runtime_ncuda_workers() > 0) {
        *device = qf_runtime_cuda_device();
        if (*device < 0) *device = 0;
        *gpu = qf_direct_cuda_devices() > 0;
    }
#endif
    if (!*gpu && qf_runtime_ncpu_workers() < 1)
        return qf_fail("no CPU worker and no usable CUDA worker: give --ncpu N (or a GPU with --ncuda 1)");
    return QF_SUCCESS;
}

static int direct_fill(qf_direct *dk, const qf_lattice *lat, const qf_dirac_params *p, qf_schur_form form,
                       const qf_field *gauge, const qf_field *in, int gpu, int device)
{
    dk->lat = *lat;
    dk->gpu = gpu;
    dk->device = device;
    dk->nthreads = qf_runtime_ncpu_workers();
    if (plan_create(&dk->plan, lat, p, form, gauge, in)) return QF_ERROR;
    dk->bytes = qf_direct_mhat_bytes(p, form, lat->global_volume);
    if (gpu) return QF_SUCCESS;
    int nf = 2 * dk->plan.nblocks * QF_WILSON_NFACES; /* the second set: the block pass's faces of t */
    if (!(dk->faces = calloc((size_t)nf, sizeof *dk->faces))) return qf_fail("out of host memory for the face buffers");
    for (int k = 0; k < nf; k++) {
        size_t fb = dk->plan.face_bytes[(k % QF_WILSON_NFACES) / 2];
        if (posix_memalign(&dk->faces[k], 64, fb ? fb : 64)) {
            dk->faces[k] = NULL;
            return qf_fail("out of host memory for the face buffers");
        }
        memset(dk->faces[k], 0, fb);
    }
    return QF_SUCCESS;
}

int qf_direct_create(qf_direct **out, const qf_lattice *lat, const qf_dirac_params *p, qf_schur_form form,
                     const qf_field *gauge, const qf_field *in, int gpu, int device)
{
    *out = NULL;
    qf_direct *dk = calloc(1, sizeof *dk);
    if (!dk) return qf_fail("out of host memory for the direct kernels' plan");
    if (direct_fill(dk, lat, p, form, gauge, in, gpu, device)) {
        qf_direct_destroy(dk);
        return QF_ERROR;
    }
    *out = dk;
    return QF_SUCCESS;
}

void qf_direct_destroy(qf_direct *dk)
{
    if (!dk) return;
    if (dk->faces)
        for (int k = 0; k < 2 * dk->plan.nblocks * QF_WILSON_NFACES; k++) free(dk->faces[k]);
    free(dk->faces);
    plan_free(&dk->plan);
    free(dk);
}

const qf_dirac_hop *qf_direct_hop(const qf_direct *dk, int k)
{
    return k >= 0 && k < dk->plan.nhops ? &dk->plan.hop[k].hop : NULL;
}

double qf_direct_bytes(const qf_direct *dk) { return dk->bytes; }

/* The direct kernels run with the runtime paused: no task may share the cores (CPU) or the GPU with
 * them, and a StarPU built with non-blocking drivers would poll on the cores. `warmup` untimed applications, then n (n <= 0: about target_s
 * seconds); on the GPU the first application is also checked back into the plan's output buffers. */
static int direct_run(qf_direct *dk, int warmup, int wait_each, long n, double target_s, qf_timing *t)
{
    int rc = QF_SUCCESS;
    qf_runtime_wait_all();
    qf_runtime_pause();
    if (!dk->gpu) {
        (void)wait_each; /* the CPU threads' applications end one after the other anyway */
        cpu_direct cd = {.p = &dk->plan, .face = dk->faces, .nthreads = dk->nthreads};
        rc = qf_timing_run(cpu_direct_run, &cd, warmup, n, target_s, t);
    }
#if QF_HAVE_CUDA
    else {
        char err[512] = "";
        t->n = n > 0 ? n : 0;
        t->rounds = 1;
        if (qf_direct_cuda_run(&dk->plan, dk->device, warmup, wait_each, target_s, &t->n, &t->seconds, err, sizeof err))
            rc = qf_fail("direct CUDA kernels: %s", err);
        else
            t->best = t->seconds / (double)t->n;
    }
#endif
    qf_runtime_resume();
    return rc;
}

int qf_direct_check(qf_direct *dk, const double *ref, double *diff)
{
    qf_timing one;
    const qf_lattice *lat = &dk->lat;
    int64_t n = lat->global_volume * 24;
    double *dir = calloc((size_t)n, sizeof *dir);
    if (!dir) return qf_fail("out of host memory for a colour-spinor field");
    int rc = direct_run(dk, 0, 0, 1, 0.0, &one);
    double tol = qf_direct_check_tolerance(dk->plan.prec), refn = 0.0;
    if (!rc) {
        pack(&dk->plan, lat, dir, 24, dk->plan.spinor[QF_DIRECT_OUT], 0);
        *diff = rel_diff(dir, ref, n);
        for (int64_t i = 0; i < n; i++) refn += ref[i] * ref[i];
        if (!(refn > 0.0) || !isfinite(refn))
            rc = qf_fail("the task graph's Mhat of the random source has |x|^2 = %g: nothing to compare", refn);
        else if (!(*diff <= tol))
            rc = qf_fail("the direct kernels and the task graph disagree: relative difference %.3e > %.0e. The benchmark "
                         "would time wrong results; this is a bug (in the benchmark's copy of the hop sequence, or in "
                         "the operator), please report it with this command line",
                         *diff, tol);
    }
    free(dir);
    return rc;
}

int qf_direct_time(qf_direct *dk, int warmup, int wait_each, long n, double target_s, qf_timing *t)
{
    return direct_run(dk, warmup, wait_each, n, target_s, t);
}
