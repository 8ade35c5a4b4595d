/* Which top-down lines the footprints block (EC-LOS-1..3), in C: issue 17's LOS rows.
 *
 * Why C: at 8 bikes a batch holds ~15,000 top-down lines and ~30,000 (line, footprint) tests;
 * numpy did them footprint by footprint in ~20 calls each, and the calls' own cost was most of
 * the ~3 ms. Here each test is a few dozen flops.
 *
 * Why the same answers as numpy: every test below is the numpy expression it replaces
 * (los/rays.py's segment_box_hits_inverse; los/topdown.py's ellipse_sides, passes_within and
 * segments_touch_convex, kept in tests/los/topdown_reference.py, as top_down_batch used them
 * row by row), in the same order of
 * operations on IEEE doubles, with numpy's NaN rules (np.maximum and np.minimum keep a NaN,
 * np.fmin and np.fmax skip one). The build turns off fused multiply-adds (-ffp-contract=off).
 * tests/los/test_toplines.py holds it to numpy's answers; tests/los/test_verdicts_kept.py to
 * every verdict on the bundled scenes.
 *
 * This module imports nothing and allocates nothing: it reads the caller's arrays and sets
 * flags in two of them.
 */
#include "_numpy_rules.h"
#include <stdint.h>
#include <string.h>

/* np.clip(x, 0, 1): np.minimum(np.maximum(x, 0), 1) */
static double
clip01(double x)
{
    return np_minimum(np_maximum(x, 0.0), 1.0);
}

/* rays.segment_box_hits_inverse for one 2D segment (start, 1 / delta) and box (low, high) */
static int
box_hit(double sx, double sy, double ix, double iy, const double *low, const double *high)
{
    double to_low_x = (low[0] - sx) * ix, to_high_x = (high[0] - sx) * ix;
    double to_low_y = (low[1] - sy) * iy, to_high_y = (high[1] - sy) * iy;
    double near = fmin(to_low_x, to_high_x), far = fmax(to_low_x, to_high_x);
    near = np_maximum(near, fmin(to_low_y, to_high_y));
    far = np_minimum(far, fmax(to_low_y, to_high_y));
    return near <= far && near <= 1.0 && far >= 0.0;
}

/* topdown.passes_within: the segment passes within `inner` less `margin` of the centre */
static int
passes_within(double sx, double sy, double ex, double ey, const double *centre, double inner, double margin)
{
    double ax = sx - centre[0], ay = sy - centre[1];
    double dx = ex - sx, dy = ey - sy;
    double length2 = dx * dx + dy * dy;
    double along = clip01(-(ax * dx + ay * dy) / (length2 > 0 ? length2 : 1.0));
    double cx = ax + along * dx, cy = ay + along * dy;
    double reach = inner - margin;
    return (cx * cx + cy * cy < reach * reach) && (reach > 0);
}

/* topdown.ellipse_sides: 1 surely touches, -1 undecided, 0 surely misses.
 * e: centre x, centre y, cos, sin, half length, half width, inner */
static int
ellipse_side(double sx, double sy, double ex, double ey, const double *e, double margin)
{
    double ax = sx - e[0], ay = sy - e[1];
    double bx = ex - e[0], by = ey - e[1];
    double cos_ = e[2], sin_ = e[3], half_length = e[4], half_width = e[5], inner = e[6];
    double a_along = (ax * cos_ + ay * sin_) / half_length, a_across = (-ax * sin_ + ay * cos_) / half_width;
    double b_along = (bx * cos_ + by * sin_) / half_length, b_across = (-bx * sin_ + by * cos_) / half_width;
    double dx = b_along - a_along, dy = b_across - a_across;
    double length2 = dx * dx + dy * dy;
    double along = clip01(-(a_along * dx + a_across * dy) / (length2 > 0 ? length2 : 1.0));
    double cx = a_along + along * dx, cy = a_across + along * dy;
    double distance2 = cx * cx + cy * cy;
    double inside = inner - margin;
    double limit = pow(1.0 + margin, 2.0);
    if ((distance2 < inside * inside) && (inside > 0))
        return 1;
    return distance2 <= limit ? -1 : 0;
}

/* topdown.segments_touch_convex for one segment against `pieces` convex pieces of `edges`
 * edges each (normals (pieces * edges, 2), offsets (pieces * edges,)) */
static int
touches_convex(double sx, double sy, double dx, double dy, const double *normals, const double *offsets,
               int64_t pieces, int64_t edges)
{
    for (int64_t q = 0; q < pieces; q++) {
        double t_enter = 0.0, t_exit = 1.0;
        int outside = 0;
        for (int64_t k = 0; k < edges; k++) {
            const double *n = normals + 2 * (q * edges + k);
            double numerator = offsets[q * edges + k] - (sx * n[0] + sy * n[1]);
            double denominator = dx * n[0] + dy * n[1];
            double ratio = numerator / denominator;
            /* np.where(d < 0, ratio, 0).max() and np.where(d > 0, ratio, 1).min() over the edges */
            double enter = denominator < 0 ? ratio : 0.0, leave = denominator > 0 ? ratio : 1.0;
            t_enter = k == 0 ? enter : np_maximum(t_enter, enter);
            t_exit = k == 0 ? leave : np_minimum(t_exit, leave);
            if (denominator == 0 && numerator < 0)
                outside = 1;
        }
        if (t_enter <= t_exit && !outside)
            return 1;
    }
    return 0;
}

#define ARGUMENTS 18

/* lines_blocked(blocks, rows, first, counts, sx, sy, ex, ey, boxes, kinds, values, edge_first,
 *               pieces, edges, normals, offsets, blocked, blocker_of_pair, margin) */
static PyObject *
lines_blocked(PyObject *module, PyObject *args)
{
    PyObject *objects[ARGUMENTS];
    double margin;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOOd:lines_blocked", &objects[0], &objects[1], &objects[2],
                          &objects[3], &objects[4], &objects[5], &objects[6], &objects[7], &objects[8],
                          &objects[9], &objects[10], &objects[11], &objects[12], &objects[13], &objects[14],
                          &objects[15], &objects[16], &objects[17], &margin))
        return NULL;
    Buffer b[ARGUMENTS];
    memset(b, 0, sizeof b);
    PyObject *result = NULL;
    /* sizes: P pairs, R footprint rows, K rows tested, L lines, T edges in all */
    if (!take(objects[2], &b[2], 8, -1, 0, "first") || !take(objects[1], &b[1], 8, -1, 0, "rows")
        || !take(objects[4], &b[4], 8, -1, 0, "sx") || !take(objects[14], &b[14], 8, -1, 0, "normals"))
        goto done;
    Py_ssize_t P = b[2].view.len / 8, K = b[1].view.len / 8, L = b[4].view.len / 8, T = b[14].view.len / 16;
    if (!take(objects[0], &b[0], 1, -1, 0, "blocks") || (P && b[0].view.len % P)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "blocks: expected (pairs, rows) bytes");
        goto done;
    }
    Py_ssize_t R = P ? b[0].view.len / P : 0;
    if (!take(objects[3], &b[3], 8, P, 0, "counts") || !take(objects[5], &b[5], 8, L, 0, "sy")
        || !take(objects[6], &b[6], 8, L, 0, "ex") || !take(objects[7], &b[7], 8, L, 0, "ey")
        || !take(objects[8], &b[8], 8, 4 * K, 0, "boxes") || !take(objects[9], &b[9], 8, K, 0, "kinds")
        || !take(objects[10], &b[10], 8, 8 * K, 0, "values") || !take(objects[11], &b[11], 8, K, 0, "edge_first")
        || !take(objects[12], &b[12], 8, K, 0, "pieces") || !take(objects[13], &b[13], 8, K, 0, "edges")
        || !take(objects[15], &b[15], 8, T, 0, "offsets") || !take(objects[16], &b[16], 1, L, 1, "blocked")
        || !take(objects[17], &b[17], 1, P * R, 1, "blocker_of_pair"))
        goto done;
    const uint8_t *blocks = b[0].view.buf;
    const int64_t *rows = b[1].view.buf, *first = b[2].view.buf, *counts = b[3].view.buf;
    const double *sx = b[4].view.buf, *sy = b[5].view.buf, *ex = b[6].view.buf, *ey = b[7].view.buf;
    const double *boxes = b[8].view.buf, *values = b[10].view.buf, *normals = b[14].view.buf;
    const double *offsets = b[15].view.buf;
    const int64_t *kinds = b[9].view.buf, *edge_first = b[11].view.buf, *pieces = b[12].view.buf;
    const int64_t *edges = b[13].view.buf;
    uint8_t *blocked = b[16].view.buf, *blocker_of_pair = b[17].view.buf;
    for (Py_ssize_t k = 0; k < K; k++) {
        if (rows[k] < 0 || rows[k] >= R || kinds[k] < 0 || kinds[k] > 2 || edge_first[k] < 0 || pieces[k] < 0
            || edges[k] < 0 || edge_first[k] + pieces[k] * edges[k] > T) {
            PyErr_Format(PyExc_ValueError, "row %zd of the tested rows is out of range", k);
            goto done;
        }
    }
    for (Py_ssize_t p = 0; p < P; p++) {
        if (first[p] < 0 || counts[p] < 0 || first[p] + counts[p] > L) {
            PyErr_Format(PyExc_ValueError, "pair %zd's lines are out of range", p);
            goto done;
        }
    }

    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t p = 0; p < P; p++) {
        for (Py_ssize_t k = 0; k < K; k++) {
            int64_t row = rows[k];
            if (!blocks[p * R + row])
                continue;
            const double *low = boxes + 4 * k, *high = boxes + 4 * k + 2, *value = values + 8 * k;
            const double *row_normals = normals + 2 * edge_first[k], *row_offsets = offsets + edge_first[k];
            for (int64_t i = first[p]; i < first[p] + counts[p]; i++) {
                double dx = ex[i] - sx[i], dy = ey[i] - sy[i];
                double ix = 1.0 / dx, iy = 1.0 / dy;
                if (!box_hit(sx[i], sy[i], ix, iy, low, high))
                    continue;
                int side;   /* 1 surely touches, -1 undecided, 0 surely misses */
                if (kinds[k] == 0)
                    side = box_hit(sx[i], sy[i], ix, iy, value, value + 2) ? 1 : -1;
                else if (kinds[k] == 1)
                    side = ellipse_side(sx[i], sy[i], ex[i], ey[i], value, margin);
                else
                    side = passes_within(sx[i], sy[i], ex[i], ey[i], value, value[2], margin) ? 1 : -1;
                if (side == -1)
                    side = touches_convex(sx[i], sy[i], dx, dy, row_normals, row_offsets, pieces[k], edges[k]);
                if (side == 1) {
                    blocked[i] = 1;
                    blocker_of_pair[p * R + row] = 1;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    release(b, ARGUMENTS);
    return result;
}

static PyMethodDef methods[] = {
    {"lines_blocked", lines_blocked, METH_VARARGS,
     "lines_blocked(blocks, rows, first, counts, sx, sy, ex, ey, boxes, kinds, values, edge_first, pieces, "
     "edges, normals, offsets, blocked, blocker_of_pair, margin): sets blocked[line] and "
     "blocker_of_pair[pair, row] for every top-down line a footprint row touches (topdown.py says more)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_toplines", NULL, -1, methods};

PyMODINIT_FUNC
PyInit__toplines(void)
{
    return PyModule_Create(&module);
}
