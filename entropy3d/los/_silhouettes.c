/* True LOS's ray grids over each target's silhouette (EC-LOS-4), in C: issue 17's LOS rows.
 *
 * Why C: a batch of 8 bikes is 56 pairs of 32 x 32 rays, each clipped against the target's bike
 * and rider slab by slab. numpy did that on (pairs, 32, 32) arrays, five of them written per
 * slab, and the memory traffic cost more than the arithmetic (2.7 of 13.8 ms); the rays' ends
 * took another 1 ms, computed over the whole grid to be read at its hits. Then, for the rays
 * found, which end in front of their viewer (EC-LOS-2) and where the ones cast stop short of
 * their ends: ~15 numpy passes over up to ~47,000 rays at 8 bikes, ~0.5-1 ms, now one pass each.
 *
 * Why the same bits as numpy: each expression below is the numpy one it replaces
 * (los/truelos.py's _silhouette_hits and _ray_ends, and los/world.py's all_pairs, as they were,
 * kept in tests/los/silhouettes_reference.py), in the same order of
 * operations on IEEE doubles, with numpy's NaN rules (np.maximum and np.minimum keep a NaN). The
 * build turns off fused multiply-adds (-ffp-contract=off). tests/los/test_silhouettes.py holds
 * it to that numpy; tests/los/test_verdicts_kept.py to every verdict on the bundled scenes.
 *
 * This module imports nothing and allocates nothing: it reads the caller's arrays and writes
 * into the ones it is given for its answers.
 */
#include "_numpy_rules.h"
#include <stdint.h>
#include <string.h>

/* clip_grid(along, to_near, to_far, a, b, parts, slabs, seen, t_hit, hit, part, counts) -> R
 *
 * For P pairs of a G x G grid: along (3, P, K, S) a ray direction's dot products with the K parts'
 * S slab normals (forward, right, up terms, scaled); to_near, to_far (P, K, S) the slabs' offsets
 * from the eye; a, b (P, G) the cells' slopes right and up; seen (P,) bytes, 0 where the pair's
 * eye is inside or beside its target (its rays hit nothing). Writes, for the R rays that enter a
 * part, pair after pair and cell after cell: t_hit where along the ray it enters the nearest
 * part, hit its flat index into the (P, G, G) grids, part which part (int8, ties to the part
 * listed first); and counts (P,) how many each pair has. t_hit, hit and part hold P * G * G. */
static PyObject *
clip_grid(PyObject *module, PyObject *args)
{
    PyObject *o[10];
    Py_ssize_t K, S;
    if (!PyArg_ParseTuple(args, "OOOOOnnOOOOO:clip_grid", &o[0], &o[1], &o[2], &o[3], &o[4], &K, &S, &o[5], &o[6],
                          &o[7], &o[8], &o[9]))
        return NULL;
    Buffer b[10];
    memset(b, 0, sizeof b);
    PyObject *result = NULL;
    if (K < 0 || S < 0 || K > 127) {
        PyErr_SetString(PyExc_ValueError, "parts must be 0 to 127 and slabs not negative");
        goto done;
    }
    if (!take(o[3], &b[3], 8, -1, 0, "a"))
        goto done;
    if (!take(o[1], &b[1], 8, -1, 0, "to_near") || (K * S != 0 && b[1].view.len % (8 * K * S))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "to_near: expected (pairs, parts, slabs)");
        goto done;
    }
    Py_ssize_t P = K * S != 0 ? b[1].view.len / (8 * K * S) : 0;
    Py_ssize_t G = P ? b[3].view.len / (8 * P) : 0;
    Py_ssize_t cells = P * G * G;
    if ((P && b[3].view.len != 8 * P * G) || !take(o[0], &b[0], 8, 3 * P * K * S, 0, "along")
        || !take(o[2], &b[2], 8, P * K * S, 0, "to_far") || !take(o[4], &b[4], 8, P * G, 0, "b")
        || !take(o[5], &b[5], 1, P, 0, "seen") || !take(o[6], &b[6], 8, cells, 1, "t_hit")
        || !take(o[7], &b[7], 8, cells, 1, "hit") || !take(o[8], &b[8], 1, cells, 1, "part")
        || !take(o[9], &b[9], 8, P, 1, "counts")) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a: expected (pairs, grid)");
        goto done;
    }
    const double *along = b[0].view.buf, *to_near = b[1].view.buf, *to_far = b[2].view.buf;
    const double *slope_a = b[3].view.buf, *slope_b = b[4].view.buf;
    const uint8_t *seen = b[5].view.buf;
    double *t_hit = b[6].view.buf;
    int64_t *hit = b[7].view.buf, *counts = b[9].view.buf;
    int8_t *part = b[8].view.buf;
    Py_ssize_t plane = P * K * S, found = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t p = 0; p < P; p++) {
        Py_ssize_t before = found;
        for (Py_ssize_t i = 0; i < G && seen[p]; i++) {
            double a = slope_a[p * G + i];
            for (Py_ssize_t j = 0; j < G; j++) {
                double b_ = slope_b[p * G + j];
                double nearest = INFINITY;
                int8_t which = 0;
                for (Py_ssize_t k = 0; k < K; k++) {
                    double t_enter = 0.0, t_exit = 1.0;
                    for (Py_ssize_t q = 0; q < S; q++) {
                        Py_ssize_t at = (p * K + k) * S + q;
                        double denominator = (along[at] + a * along[plane + at]) + b_ * along[2 * plane + at];
                        double near_t = to_near[at] / denominator, far_t = to_far[at] / denominator;
                        t_enter = np_maximum(t_enter, np_minimum(near_t, far_t));
                        t_exit = np_minimum(t_exit, np_maximum(near_t, far_t));
                    }
                    if (t_enter <= t_exit && t_enter < nearest) {
                        nearest = t_enter;
                        which = (int8_t)k;
                    }
                }
                if (isfinite(nearest)) {
                    t_hit[found] = nearest;
                    hit[found] = (p * G + i) * G + j;
                    part[found] = which;
                    found++;
                }
            }
        }
        counts[p] = found - before;
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromSsize_t(found);
done:
    release(b, 10);
    return result;
}

/* ray_ends(hit, t_hit, frames, a, b, scale, eyes, x, y, z, cells)
 *
 * For R rays of P pairs' G x G grids, given as flat indices ``hit`` into the (P, G, G) grids and
 * how far along they meet the target ``t_hit``: writes where (x, y, z, each (R,)) and their cells
 * numbered row by row (R,) int32. frames (P, 3, 3) rows forward, right, up; a, b (P, G) the
 * cells' slopes; scale (P,) how far a ray reaches; eyes (P, 3). */
static PyObject *
ray_ends(PyObject *module, PyObject *args)
{
    PyObject *o[11];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOO:ray_ends", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &o[7],
                          &o[8], &o[9], &o[10]))
        return NULL;
    Buffer b[11];
    memset(b, 0, sizeof b);
    PyObject *result = NULL;
    if (!take(o[0], &b[0], 8, -1, 0, "hit") || !take(o[5], &b[5], 8, -1, 0, "scale")
        || !take(o[3], &b[3], 8, -1, 0, "a"))
        goto done;
    Py_ssize_t R = b[0].view.len / 8, P = b[5].view.len / 8;
    Py_ssize_t G = P ? b[3].view.len / (8 * P) : 0;
    if ((P && b[3].view.len != 8 * P * G) || !take(o[1], &b[1], 8, R, 0, "t_hit")
        || !take(o[2], &b[2], 8, 9 * P, 0, "frames") || !take(o[4], &b[4], 8, P * G, 0, "b")
        || !take(o[6], &b[6], 8, 3 * P, 0, "eyes") || !take(o[7], &b[7], 8, R, 1, "x")
        || !take(o[8], &b[8], 8, R, 1, "y") || !take(o[9], &b[9], 8, R, 1, "z")
        || !take(o[10], &b[10], 4, R, 1, "cells")) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a: expected (pairs, grid)");
        goto done;
    }
    const int64_t *hit = b[0].view.buf;
    const double *t_hit = b[1].view.buf, *frames = b[2].view.buf, *slope_a = b[3].view.buf;
    const double *slope_b = b[4].view.buf, *scale = b[5].view.buf, *eyes = b[6].view.buf;
    double *ends[3] = {b[7].view.buf, b[8].view.buf, b[9].view.buf};
    int32_t *cells = b[10].view.buf;
    for (Py_ssize_t r = 0; r < R; r++) {
        if (hit[r] < 0 || hit[r] >= P * G * G) {
            PyErr_Format(PyExc_ValueError, "ray %zd's cell %lld is outside the grids", r, (long long)hit[r]);
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    /* the hits come pair after pair and cell after cell: the pair, row and column are followed
     * along them (a division per ray cost a third of this loop); a step back is divided out */
    Py_ssize_t p = 0, i = 0, row_start = 0;
    for (Py_ssize_t r = 0; r < R; r++) {
        if (hit[r] < row_start) {
            p = hit[r] / (G * G);
            i = (hit[r] - p * (G * G)) / G;
            row_start = p * (G * G) + i * G;
        }
        while (hit[r] >= row_start + G) {
            row_start += G;
            if (++i == G) {
                i = 0;
                p++;
            }
        }
        Py_ssize_t cell = i * G + (hit[r] - row_start), j = hit[r] - row_start;
        const double *frame = frames + 9 * p;
        cells[r] = (int32_t)cell;
        for (int axis = 0; axis < 3; axis++) {
            double direction = (frame[axis] + slope_a[p * G + i] * frame[3 + axis])
                               + slope_b[p * G + j] * frame[6 + axis];
            direction *= scale[p];
            ends[axis][r] = eyes[3 * p + axis] + direction * t_hit[r];
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    release(b, 11);
    return result;
}

/* rays_in_front(x, y, counts, centre_x, centre_y, forward_x, forward_y, in_front)
 *
 * For R rays of P pairs, pair after pair (counts (P,) how many each has), their ends' x and y
 * (R,) each: writes in_front (R,) bytes, 1 where the end is strictly in front of the pair's
 * viewer's base centre line (EC-LOS-2), given each pair's viewer centre and forward (P,) each. */
static PyObject *
rays_in_front(PyObject *module, PyObject *args)
{
    PyObject *o[8];
    if (!PyArg_ParseTuple(args, "OOOOOOOO:rays_in_front", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &o[7]))
        return NULL;
    Buffer b[8];
    memset(b, 0, sizeof b);
    PyObject *result = NULL;
    if (!take(o[0], &b[0], 8, -1, 0, "x") || !take(o[2], &b[2], 8, -1, 0, "counts"))
        goto done;
    Py_ssize_t R = b[0].view.len / 8, P = b[2].view.len / 8;
    if (!take(o[1], &b[1], 8, R, 0, "y") || !take(o[3], &b[3], 8, P, 0, "centre_x")
        || !take(o[4], &b[4], 8, P, 0, "centre_y") || !take(o[5], &b[5], 8, P, 0, "forward_x")
        || !take(o[6], &b[6], 8, P, 0, "forward_y") || !take(o[7], &b[7], 1, R, 1, "in_front"))
        goto done;
    const int64_t *counts = b[2].view.buf;
    Py_ssize_t total = 0;
    for (Py_ssize_t p = 0; p < P; p++) {
        if (counts[p] < 0 || counts[p] > R - total) {
            PyErr_Format(PyExc_ValueError, "counts: pair %zd's rays run past the %zd rays given", p, R);
            goto done;
        }
        total += counts[p];
    }
    if (total != R) {
        PyErr_Format(PyExc_ValueError, "counts: %zd rays counted, %zd given", total, R);
        goto done;
    }
    const double *x = b[0].view.buf, *y = b[1].view.buf, *cx = b[3].view.buf, *cy = b[4].view.buf;
    const double *fx = b[5].view.buf, *fy = b[6].view.buf;
    unsigned char *in_front = b[7].view.buf;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t r = 0;
    for (Py_ssize_t p = 0; p < P; p++)
        for (Py_ssize_t end = r + counts[p]; r < end; r++)
            in_front[r] = ((x[r] - cx[p]) * fx[p] + (y[r] - cy[p]) * fy[p]) > 0;
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    release(b, 8);
    return result;
}

/* ray_stops(x, y, z, rows, eyes, start_of, gap, stop_x, stop_y, stop_z)
 *
 * For M of R rays (rows (M,) into the ends x, y, z (R,) each), cast from the eyes (Q, 3) at
 * start_of (M,): writes where each stops (M,) per coordinate, ``gap`` short of its end along the
 * ray (a ray of no length keeps its end). */
static PyObject *
ray_stops(PyObject *module, PyObject *args)
{
    PyObject *o[10];
    double gap;
    if (!PyArg_ParseTuple(args, "OOOOOOdOOO:ray_stops", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &gap, &o[7],
                          &o[8], &o[9]))
        return NULL;
    o[6] = NULL;
    Buffer b[10];
    memset(b, 0, sizeof b);
    PyObject *result = NULL;
    if (!take(o[0], &b[0], 8, -1, 0, "x") || !take(o[3], &b[3], 8, -1, 0, "rows")
        || !take(o[4], &b[4], 8, -1, 0, "eyes"))
        goto done;
    Py_ssize_t R = b[0].view.len / 8, M = b[3].view.len / 8, Q = b[4].view.len / 24;
    if (b[4].view.len != 24 * Q) {
        PyErr_SetString(PyExc_ValueError, "eyes: expected (eyes, 3)");
        goto done;
    }
    if (!take(o[1], &b[1], 8, R, 0, "y") || !take(o[2], &b[2], 8, R, 0, "z")
        || !take(o[5], &b[5], 8, M, 0, "start_of") || !take(o[7], &b[7], 8, M, 1, "stop_x")
        || !take(o[8], &b[8], 8, M, 1, "stop_y") || !take(o[9], &b[9], 8, M, 1, "stop_z"))
        goto done;
    const int64_t *rows = b[3].view.buf, *start_of = b[5].view.buf;
    for (Py_ssize_t m = 0; m < M; m++) {
        if (rows[m] < 0 || rows[m] >= R || start_of[m] < 0 || start_of[m] >= Q) {
            PyErr_Format(PyExc_ValueError, "ray %zd: row %lld or eye %lld is outside the arrays", m,
                         (long long)rows[m], (long long)start_of[m]);
            goto done;
        }
    }
    const double *ends[3] = {b[0].view.buf, b[1].view.buf, b[2].view.buf}, *eyes = b[4].view.buf;
    double *stops[3] = {b[7].view.buf, b[8].view.buf, b[9].view.buf};
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t m = 0; m < M; m++) {
        double reach[3];
        for (int j = 0; j < 3; j++)
            reach[j] = ends[j][rows[m]] - eyes[3 * start_of[m] + j];
        /* the sum in the order numpy took it: (x x + z z) + y y */
        double length = sqrt((reach[0] * reach[0] + reach[2] * reach[2]) + reach[1] * reach[1]);
        double scale = gap / np_maximum(length, 1e-9);
        for (int j = 0; j < 3; j++)
            stops[j][m] = ends[j][rows[m]] - reach[j] * scale;
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    release(b, 10);
    return result;
}

static PyMethodDef methods[] = {
    {"clip_grid", clip_grid, METH_VARARGS,
     "clip_grid(along, to_near, to_far, a, b, parts, slabs, seen, t_hit, hit, part, counts) -> R: the rays "
     "of each pair's grid that enter the target, where and which part (truelos.py says more)."},
    {"ray_ends", ray_ends, METH_VARARGS,
     "ray_ends(hit, t_hit, frames, a, b, scale, eyes, x, y, z, cells): the rays' ends and cells."},
    {"rays_in_front", rays_in_front, METH_VARARGS,
     "rays_in_front(x, y, counts, centre_x, centre_y, forward_x, forward_y, in_front): which rays end in front "
     "of their viewer's base centre line (EC-LOS-2)."},
    {"ray_stops", ray_stops, METH_VARARGS,
     "ray_stops(x, y, z, rows, eyes, start_of, gap, stop_x, stop_y, stop_z): where the rays cast stop, gap short "
     "of their ends."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_silhouettes", NULL, -1, methods};

PyMODINIT_FUNC
PyInit__silhouettes(void)
{
    return PyModule_Create(&module);
}
