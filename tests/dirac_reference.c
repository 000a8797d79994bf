/* The reference Wilson-clover operator: see dirac_reference.h. Every loop runs over the whole global
 * lattice; nothing here knows about blocks, faces or StarPU. */
#include "dirac_reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ref_op_names[REF_NOPS] = {"M", "Mdag", "MdagM", "Mhat", "Mhat_dag", "Mhat_dag_Mhat"};

int ref_op_is_eo(ref_op op) { return op == REF_MHAT || op == REF_MHAT_DAG || op == REF_MHAT_DAGMHAT; }

/* DeGrand-Rossi, exactly as DESIGN.md lists them. */
const double complex ref_gamma[4][4][4] = {
    {{0, 0, 0, I}, {0, 0, I, 0}, {0, -I, 0, 0}, {-I, 0, 0, 0}},
    {{0, 0, 0, -1}, {0, 0, 1, 0}, {0, 1, 0, 0}, {-1, 0, 0, 0}},
    {{0, 0, I, 0}, {0, 0, 0, -I}, {-I, 0, 0, 0}, {0, I, 0, 0}},
    {{0, 0, 1, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}},
};
const double complex ref_gamma5[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, -1, 0}, {0, 0, 0, -1}};

/* ---- lattice helpers ---- */

int64_t ref_volume(const int L[4]) { return (int64_t)L[0] * L[1] * L[2] * L[3]; }

void ref_coords(int64_t i, const int L[4], int x[4])
{
    for (int mu = 0; mu < 4; mu++) {
        x[mu] = (int)(i % L[mu]);
        i /= L[mu];
    }
}

int64_t ref_index(const int x[4], const int L[4])
{
    return x[0] + (int64_t)L[0] * (x[1] + (int64_t)L[1] * (x[2] + (int64_t)L[2] * x[3]));
}

int ref_parity_of(int64_t i, const int L[4])
{
    int x[4];
    ref_coords(i, L, x);
    return (x[0] + x[1] + x[2] + x[3]) % 2;
}

static int on_parity(int64_t i, const int L[4], int parity) { return parity < 0 || ref_parity_of(i, L) == parity; }

/* neighbour x + step mu, periodic */
static int64_t neighbour(const int L[4], const int x[4], int mu, int step)
{
    int y[4] = {x[0], x[1], x[2], x[3]};
    y[mu] = (y[mu] + step + L[mu]) % L[mu];
    return ref_index(y, L);
}

static int64_t neighbour2(const int L[4], const int x[4], int mu, int smu, int nu, int snu)
{
    int y[4] = {x[0], x[1], x[2], x[3]};
    y[mu] = (y[mu] + smu + L[mu]) % L[mu];
    y[nu] = (y[nu] + snu + L[nu]) % L[nu];
    return ref_index(y, L);
}

/* ---- 3x3 matrices and spinors ---- */

ref_mat3 ref_m_load(const double *p)
{
    ref_mat3 m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m.e[i][j] = CMPLX(p[6 * i + 2 * j], p[6 * i + 2 * j + 1]);
    return m;
}

void ref_m_store(double *p, const ref_mat3 *m)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            p[6 * i + 2 * j] = creal(m->e[i][j]);
            p[6 * i + 2 * j + 1] = cimag(m->e[i][j]);
        }
}

ref_mat3 ref_m_mul(ref_mat3 a, ref_mat3 b)
{
    ref_mat3 c;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double complex s = 0;
            for (int k = 0; k < 3; k++) s += a.e[i][k] * b.e[k][j];
            c.e[i][j] = s;
        }
    return c;
}

ref_mat3 ref_m_dag(ref_mat3 a)
{
    ref_mat3 c;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) c.e[i][j] = conj(a.e[j][i]);
    return c;
}

ref_mat3 ref_m_link(const double *links, int64_t site, int mu) { return ref_m_load(links + (site * 4 + mu) * 18); }

static void sp_load(const double *p, double complex s[12])
{
    for (int k = 0; k < 12; k++) s[k] = CMPLX(p[2 * k], p[2 * k + 1]);
}

static void sp_store(double *p, const double complex s[12])
{
    for (int k = 0; k < 12; k++) {
        p[2 * k] = creal(s[k]);
        p[2 * k + 1] = cimag(s[k]);
    }
}

static double *sp_alloc(const int L[4])
{
    double *p = calloc((size_t)ref_volume(L) * REF_SPINOR_REALS, sizeof(double));
    if (!p) {
        printf("dirac reference: out of memory\n");
        exit(1);
    }
    return p;
}

/* ---- field strength and the clover term ---- */

void ref_field_strength(const int L[4], const double *U, double *f)
{
    int64_t V = ref_volume(L);
    for (int64_t i = 0; i < V; i++) {
        int x[4];
        ref_coords(i, L, x);
        int p = 0;
        for (int mu = 0; mu < 4; mu++)
            for (int nu = mu + 1; nu < 4; nu++, p++) {
                int64_t xpm = neighbour(L, x, mu, +1), xpn = neighbour(L, x, nu, +1);
                int64_t xmm = neighbour(L, x, mu, -1), xmn = neighbour(L, x, nu, -1);
                int64_t xmmpn = neighbour2(L, x, mu, -1, nu, +1), xmmmn = neighbour2(L, x, mu, -1, nu, -1);
                int64_t xpmmn = neighbour2(L, x, mu, +1, nu, -1);
                /* the four leaves, each from x back to x, counter-clockwise in the (mu, nu) plane */
                ref_mat3 q1 = ref_m_mul(ref_m_mul(ref_m_link(U, i, mu), ref_m_link(U, xpm, nu)),
                                ref_m_mul(ref_m_dag(ref_m_link(U, xpn, mu)), ref_m_dag(ref_m_link(U, i, nu))));
                ref_mat3 q2 = ref_m_mul(ref_m_mul(ref_m_link(U, i, nu), ref_m_dag(ref_m_link(U, xmmpn, mu))),
                                ref_m_mul(ref_m_dag(ref_m_link(U, xmm, nu)), ref_m_link(U, xmm, mu)));
                ref_mat3 q3 = ref_m_mul(ref_m_mul(ref_m_dag(ref_m_link(U, xmm, mu)), ref_m_dag(ref_m_link(U, xmmmn, nu))),
                                ref_m_mul(ref_m_link(U, xmmmn, mu), ref_m_link(U, xmn, nu)));
                ref_mat3 q4 = ref_m_mul(ref_m_mul(ref_m_dag(ref_m_link(U, xmn, nu)), ref_m_link(U, xmn, mu)),
                                ref_m_mul(ref_m_link(U, xpmmn, nu), ref_m_dag(ref_m_link(U, i, mu))));
                ref_mat3 fm;
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++) {
                        double complex q = q1.e[a][b] + q2.e[a][b] + q3.e[a][b] + q4.e[a][b];
                        double complex qd = conj(q1.e[b][a] + q2.e[b][a] + q3.e[b][a] + q4.e[b][a]);
                        fm.e[a][b] = (q - qd) / 8.0;
                    }
                ref_m_store(f + (i * 6 + p) * 18, &fm);
            }
    }
}

/* sigma_munu = (i/2)(g_mu g_nu - g_nu g_mu) */
static void sigma(int mu, int nu, double complex s[4][4])
{
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            double complex c = 0;
            for (int k = 0; k < 4; k++) c += ref_gamma[mu][a][k] * ref_gamma[nu][k][b] - ref_gamma[nu][a][k] * ref_gamma[mu][k][b];
            s[a][b] = 0.5 * I * c;
        }
}

void ref_clover_site(const double *f_site, double kappa_csw, double complex a[12][12])
{
    for (int r = 0; r < 12; r++)
        for (int c = 0; c < 12; c++) a[r][c] = r == c;
    int p = 0;
    for (int mu = 0; mu < 4; mu++)
        for (int nu = mu + 1; nu < 4; nu++, p++) {
            double complex s[4][4];
            sigma(mu, nu, s);
            ref_mat3 f = ref_m_load(f_site + 18 * p);
            for (int sa = 0; sa < 4; sa++)
                for (int sb = 0; sb < 4; sb++)
                    for (int ca = 0; ca < 3; ca++)
                        for (int cb = 0; cb < 3; cb++)
                            a[3 * sa + ca][3 * sb + cb] += I * kappa_csw * s[sa][sb] * f.e[ca][cb];
        }
}

int ref_invert12(const double complex a_in[12][12], double complex inv[12][12])
{
    double complex a[12][12];
    memcpy(a, a_in, sizeof a);
    for (int r = 0; r < 12; r++)
        for (int c = 0; c < 12; c++) inv[r][c] = r == c;
    for (int col = 0; col < 12; col++) {
        int piv = col;
        for (int r = col + 1; r < 12; r++)
            if (cabs(a[r][col]) > cabs(a[piv][col])) piv = r;
        if (cabs(a[piv][col]) == 0.0) return -1;
        if (piv != col)
            for (int c = 0; c < 12; c++) {
                double complex t = a[col][c];
                a[col][c] = a[piv][c];
                a[piv][c] = t;
                t = inv[col][c];
                inv[col][c] = inv[piv][c];
                inv[piv][c] = t;
            }
        double complex d = 1.0 / a[col][col];
        for (int c = 0; c < 12; c++) {
            a[col][c] *= d;
            inv[col][c] *= d;
        }
        for (int r = 0; r < 12; r++) {
            if (r == col) continue;
            double complex m = a[r][col];
            if (m == 0) continue;
            for (int c = 0; c < 12; c++) {
                a[r][c] -= m * a[col][c];
                inv[r][c] -= m * inv[col][c];
            }
        }
    }
    return 0;
}

/* ---- the operator ---- */

int ref_dirac_init(ref_dirac *r, const int L[4], const double *links, double kappa, double csw,
                   const double phase[4][2])
{
    memset(r, 0, sizeof *r);
    memcpy(r->L, L, sizeof r->L);
    r->V = ref_volume(L);
    r->kappa = kappa;
    r->csw = csw;
    for (int mu = 0; mu < 4; mu++) r->phase[mu] = CMPLX(phase[mu][0], phase[mu][1]);
    r->links = malloc((size_t)r->V * REF_GAUGE_REALS * sizeof(double));
    memcpy(r->links, links, (size_t)r->V * REF_GAUGE_REALS * sizeof(double));
    if (csw == 0.0) return 0;
    r->A = malloc((size_t)r->V * 144 * sizeof(double complex));
    r->Ainv = malloc((size_t)r->V * 144 * sizeof(double complex));
    double *f = malloc((size_t)r->V * 108 * sizeof(double));
    ref_field_strength(L, links, f);
    int rc = 0;
    for (int64_t i = 0; i < r->V; i++) {
        double complex(*a)[12] = (double complex(*)[12])(r->A + 144 * i);
        double complex(*ai)[12] = (double complex(*)[12])(r->Ainv + 144 * i);
        ref_clover_site(f + 108 * i, kappa * csw, a);
        if (ref_invert12((const double complex(*)[12])a, ai)) {
            printf("dirac reference: A(x) singular at site %lld\n", (long long)i);
            rc = -1;
        }
    }
    free(f);
    return rc;
}

void ref_dirac_free(ref_dirac *r)
{
    free(r->links);
    free(r->A);
    free(r->Ainv);
    memset(r, 0, sizeof *r);
}

/* out = D in (D^dagger: the projectors swapped) on the sites of parity; out != in. */
void ref_hop(const ref_dirac *r, double *out, const double *in, int dagger, int parity)
{
    const int *L = r->L;
    double sgn = dagger ? -1.0 : 1.0; /* forward hop (1 - sgn g_mu), backward hop (1 + sgn g_mu) */
    for (int64_t i = 0; i < r->V; i++) {
        if (!on_parity(i, L, parity)) continue;
        int x[4];
        ref_coords(i, L, x);
        double complex acc[12] = {0};
        for (int mu = 0; mu < 4; mu++) {
            for (int dir = 0; dir < 2; dir++) {
                int64_t j;
                double complex ph = 1.0;
                ref_mat3 u;
                if (dir == 0) { /* from x + mu: U_mu(x) psi(x + mu) */
                    j = neighbour(L, x, mu, +1);
                    if (x[mu] == L[mu] - 1) ph = r->phase[mu];
                    u = ref_m_link(r->links, i, mu);
                } else { /* from x - mu: U_mu(x - mu)^dagger psi(x - mu) */
                    j = neighbour(L, x, mu, -1);
                    if (x[mu] == 0) ph = conj(r->phase[mu]);
                    u = ref_m_dag(ref_m_link(r->links, j, mu));
                }
                double complex psi[12], chi[12];
                sp_load(in + REF_SPINOR_REALS * j, psi);
                for (int s = 0; s < 4; s++)
                    for (int a = 0; a < 3; a++) {
                        double complex c = 0;
                        for (int b = 0; b < 3; b++) c += u.e[a][b] * psi[3 * s + b];
                        chi[3 * s + a] = ph * c;
                    }
                double g = dir == 0 ? -sgn : sgn; /* projector 1 + g gamma_mu */
                for (int s = 0; s < 4; s++)
                    for (int a = 0; a < 3; a++) {
                        double complex c = chi[3 * s + a];
                        for (int t = 0; t < 4; t++) c += g * ref_gamma[mu][s][t] * chi[3 * t + a];
                        acc[3 * s + a] += c;
                    }
            }
        }
        sp_store(out + REF_SPINOR_REALS * i, acc);
    }
}

void ref_clover(const ref_dirac *r, double *out, const double *in, int inverse, int dagger, int parity)
{
    for (int64_t i = 0; i < r->V; i++) {
        if (!on_parity(i, r->L, parity)) continue;
        double complex psi[12], res[12];
        sp_load(in + REF_SPINOR_REALS * i, psi);
        if (!r->A) {
            sp_store(out + REF_SPINOR_REALS * i, psi);
            continue;
        }
        const double complex *m = (inverse ? r->Ainv : r->A) + 144 * i;
        for (int a = 0; a < 12; a++) {
            double complex c = 0;
            for (int b = 0; b < 12; b++) c += (dagger ? conj(m[12 * b + a]) : m[12 * a + b]) * psi[b];
            res[a] = c;
        }
        sp_store(out + REF_SPINOR_REALS * i, res);
    }
}

/* out = a x + b y on the sites of parity */
static void axpby(const ref_dirac *r, double *out, double a, const double *x, double b, const double *y, int parity)
{
    for (int64_t i = 0; i < r->V; i++) {
        if (!on_parity(i, r->L, parity)) continue;
        for (int k = 0; k < REF_SPINOR_REALS; k++)
            out[REF_SPINOR_REALS * i + k] = a * x[REF_SPINOR_REALS * i + k] + b * y[REF_SPINOR_REALS * i + k];
    }
}

/* out = A in - kappa D in (dagger: A^dagger in - kappa D^dagger in) */
static void apply_full(const ref_dirac *r, double *out, const double *in, int dagger)
{
    double *t = sp_alloc(r->L), *c = sp_alloc(r->L);
    ref_hop(r, t, in, dagger, -1);
    ref_clover(r, c, in, 0, dagger, -1);
    axpby(r, out, 1.0, c, -r->kappa, t, -1);
    free(t);
    free(c);
}

/* even sites of out = Mhat in (dagger: Mhat^dagger in), from the even sites of in */
static void apply_schur(const ref_dirac *r, ref_form form, double *out, const double *in, int dagger)
{
    double k2 = r->kappa * r->kappa;
    double *e = sp_alloc(r->L), *t1 = sp_alloc(r->L), *t2 = sp_alloc(r->L), *c = sp_alloc(r->L);
    ref_copy_parity(r->L, e, in, 0); /* only the even sites of in enter */
    if (!dagger) {
        ref_hop(r, t1, e, 0, 1);       /* D_oe in_e */
        ref_clover(r, t1, t1, 1, 0, 1); /* A_oo^-1 */
        ref_hop(r, t2, t1, 0, 0);      /* D_eo */
        if (form == REF_ASYMMETRIC) {
            ref_clover(r, c, e, 0, 0, 0);             /* A_ee in_e */
            axpby(r, out, 1.0, c, -k2, t2, 0);
        } else {
            ref_clover(r, t2, t2, 1, 0, 0);           /* A_ee^-1 */
            axpby(r, out, 1.0, e, -k2, t2, 0);
        }
    } else if (form == REF_ASYMMETRIC) {
        /* (A_ee - k^2 D_eo A_oo^-1 D_oe)^dagger = A_ee^dagger - k^2 (D^dagger)_eo A_oo^-dagger (D^dagger)_oe */
        ref_hop(r, t1, e, 1, 1);
        ref_clover(r, t1, t1, 1, 1, 1);
        ref_hop(r, t2, t1, 1, 0);
        ref_clover(r, c, e, 0, 1, 0);
        axpby(r, out, 1.0, c, -k2, t2, 0);
    } else {
        /* (1 - k^2 A_ee^-1 D_eo A_oo^-1 D_oe)^dagger = 1 - k^2 (D^dagger)_eo A_oo^-dagger (D^dagger)_oe A_ee^-dagger */
        ref_clover(r, c, e, 1, 1, 0);
        ref_hop(r, t1, c, 1, 1);
        ref_clover(r, t1, t1, 1, 1, 1);
        ref_hop(r, t2, t1, 1, 0);
        axpby(r, out, 1.0, e, -k2, t2, 0);
    }
    free(e);
    free(t1);
    free(t2);
    free(c);
}

void ref_dirac_apply(const ref_dirac *r, ref_op op, ref_form form, double *out, const double *in)
{
    double *t = sp_alloc(r->L);
    switch (op) {
    case REF_M: apply_full(r, out, in, 0); break;
    case REF_MDAG: apply_full(r, out, in, 1); break;
    case REF_MDAGM:
        apply_full(r, t, in, 0);
        apply_full(r, out, t, 1);
        break;
    case REF_MHAT: apply_schur(r, form, out, in, 0); break;
    case REF_MHAT_DAG: apply_schur(r, form, out, in, 1); break;
    case REF_MHAT_DAGMHAT:
        apply_schur(r, form, t, in, 0);
        apply_schur(r, form, out, t, 1);
        break;
    default: printf("dirac reference: unknown op %d\n", (int)op); exit(1);
    }
    free(t);
}

void ref_dirac_prepare(const ref_dirac *r, ref_form form, double *bhat, const double *b)
{
    double *o = sp_alloc(r->L), *t = sp_alloc(r->L), *u = sp_alloc(r->L);
    ref_clover(r, o, b, 1, 0, 1);      /* A_oo^-1 b_o */
    ref_hop(r, t, o, 0, 0);            /* D_eo */
    axpby(r, u, 1.0, b, r->kappa, t, 0); /* b_e + kappa D_eo A_oo^-1 b_o */
    if (form == REF_SYMMETRIC) ref_clover(r, u, u, 1, 0, 0);
    ref_copy_parity(r->L, bhat, u, 0);
    free(o);
    free(t);
    free(u);
}

void ref_dirac_reconstruct(const ref_dirac *r, double *x, const double *x_even, const double *b)
{
    double *e = sp_alloc(r->L), *t = sp_alloc(r->L), *u = sp_alloc(r->L);
    ref_copy_parity(r->L, e, x_even, 0);
    ref_hop(r, t, e, 0, 1);              /* D_oe x_e */
    axpby(r, u, 1.0, b, r->kappa, t, 1); /* b_o + kappa D_oe x_e */
    ref_clover(r, u, u, 1, 0, 1);        /* A_oo^-1 */
    ref_copy_parity(r->L, x, e, 0);
    ref_copy_parity(r->L, x, u, 1);
    free(e);
    free(t);
    free(u);
}

/* ---- spinor algebra ---- */

double complex ref_dot(const int L[4], const double *a, const double *b, int parity)
{
    double complex s = 0;
    int64_t V = ref_volume(L);
    for (int64_t i = 0; i < V; i++) {
        if (!on_parity(i, L, parity)) continue;
        for (int k = 0; k < 12; k++) {
            const double *p = a + REF_SPINOR_REALS * i + 2 * k, *q = b + REF_SPINOR_REALS * i + 2 * k;
            s += CMPLX(p[0] * q[0] + p[1] * q[1], p[0] * q[1] - p[1] * q[0]);
        }
    }
    return s;
}

double ref_norm2(const int L[4], const double *a, int parity) { return creal(ref_dot(L, a, a, parity)); }

double ref_rel_diff(const int L[4], const double *a, const double *b, int parity)
{
    double d = 0, n = 0;
    int64_t V = ref_volume(L);
    for (int64_t i = 0; i < V; i++) {
        if (!on_parity(i, L, parity)) continue;
        for (int k = 0; k < REF_SPINOR_REALS; k++) {
            double x = a[REF_SPINOR_REALS * i + k] - b[REF_SPINOR_REALS * i + k];
            d += x * x;
            n += b[REF_SPINOR_REALS * i + k] * b[REF_SPINOR_REALS * i + k];
        }
    }
    return n > 0 ? sqrt(d / n) : sqrt(d);
}

void ref_apply_gamma5(const int L[4], double *out, const double *in)
{
    int64_t V = ref_volume(L);
    for (int64_t i = 0; i < V; i++)
        for (int s = 0; s < 4; s++)
            for (int k = 0; k < 6; k++)
                out[REF_SPINOR_REALS * i + 6 * s + k] = creal(ref_gamma5[s][s]) * in[REF_SPINOR_REALS * i + 6 * s + k];
}

void ref_copy_parity(const int L[4], double *dst, const double *src, int parity)
{
    int64_t V = ref_volume(L);
    for (int64_t i = 0; i < V; i++)
        if (on_parity(i, L, parity))
            memcpy(dst + REF_SPINOR_REALS * i, src + REF_SPINOR_REALS * i, REF_SPINOR_REALS * sizeof(double));
}

/* ---- random numbers (splitmix64, Box-Muller) ---- */

uint64_t ref_rng_next(ref_rng *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double ref_rng_uniform(ref_rng *g) { return ((double)(ref_rng_next(g) >> 11) + 0.5) * 0x1.0p-53; }

double ref_rng_gauss(ref_rng *g)
{
    double u1 = ref_rng_uniform(g), u2 = ref_rng_uniform(g);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

void ref_random_su3(ref_rng *g, double *m)
{
    double complex r[3][3];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) r[i][j] = CMPLX(ref_rng_gauss(g), ref_rng_gauss(g));
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < i; k++) { /* row i -= (row k^dagger row i) row k */
            double complex p = 0;
            for (int j = 0; j < 3; j++) p += conj(r[k][j]) * r[i][j];
            for (int j = 0; j < 3; j++) r[i][j] -= p * r[k][j];
        }
        double n = 0;
        for (int j = 0; j < 3; j++) n += creal(r[i][j] * conj(r[i][j]));
        for (int j = 0; j < 3; j++) r[i][j] /= sqrt(n);
    }
    for (int j = 0; j < 3; j++) { /* row 2 = conj(row 0 x row 1): unitary with determinant 1 */
        int a = (j + 1) % 3, b = (j + 2) % 3;
        r[2][j] = conj(r[0][a] * r[1][b] - r[0][b] * r[1][a]);
    }
    ref_mat3 u;
    memcpy(u.e, r, sizeof u.e);
    ref_m_store(m, &u);
}

void ref_random_links(ref_rng *g, const int L[4], double *links)
{
    for (int64_t k = 0; k < ref_volume(L) * 4; k++) ref_random_su3(g, links + 18 * k);
}

void ref_unit_links(const int L[4], double *links)
{
    memset(links, 0, (size_t)ref_volume(L) * REF_GAUGE_REALS * sizeof(double));
    for (int64_t k = 0; k < ref_volume(L) * 4; k++)
        for (int a = 0; a < 3; a++) links[18 * k + 8 * a] = 1.0;
}

void ref_random_spinor(ref_rng *g, const int L[4], double *psi)
{
    for (int64_t k = 0; k < ref_volume(L) * REF_SPINOR_REALS; k++) psi[k] = ref_rng_gauss(g);
}

void ref_random_gauge_transform(ref_rng *g, const int L[4], double *omega)
{
    for (int64_t i = 0; i < ref_volume(L); i++) ref_random_su3(g, omega + 18 * i);
}

void ref_gauge_transform_links(const int L[4], const double *omega, const double *links, double *out)
{
    int64_t V = ref_volume(L);
    for (int64_t i = 0; i < V; i++) {
        int x[4];
        ref_coords(i, L, x);
        for (int mu = 0; mu < 4; mu++) {
            ref_mat3 u = ref_m_mul(ref_m_mul(ref_m_load(omega + 18 * i), ref_m_link(links, i, mu)),
                           ref_m_dag(ref_m_load(omega + 18 * neighbour(L, x, mu, +1))));
            ref_m_store(out + (i * 4 + mu) * 18, &u);
        }
    }
}

void ref_gauge_transform_spinor(const int L[4], const double *omega, const double *psi, double *out)
{
    int64_t V = ref_volume(L);
    for (int64_t i = 0; i < V; i++) {
        ref_mat3 w = ref_m_load(omega + 18 * i);
        double complex s[12], t[12];
        sp_load(psi + REF_SPINOR_REALS * i, s);
        for (int sp = 0; sp < 4; sp++)
            for (int a = 0; a < 3; a++) {
                double complex c = 0;
                for (int b = 0; b < 3; b++) c += w.e[a][b] * s[3 * sp + b];
                t[3 * sp + a] = c;
            }
        sp_store(out + REF_SPINOR_REALS * i, t);
    }
}
