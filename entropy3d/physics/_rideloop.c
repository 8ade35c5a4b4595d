/* The ride's per-step controller loop, in C: issue 17's activation rows.
 *
 * Why C: at 240 Hz a ride is hundreds of physics steps, and the controller around each step
 * (contacts, the path's projection, the velocity and turn it sets) cost twice Bullet's own step
 * in interpreted Python on a 2-core machine. Here it costs a small part of it; what is left is
 * PyBullet's own API calls, which the loop makes through the functions it is given (this module
 * imports nothing: physics/ride.py hands it the pybullet module, as the only importer of it).
 *
 * Why the same bits as Python: every replay, golden transform and verdict rests on the ride's
 * floats. Each expression below is the Python one it replaces (physics/ride.py and
 * physics/polyline.py before this file), in the same order of operations, on IEEE doubles:
 * CPython's float arithmetic is C's double arithmetic, math.sqrt/acos/cos/sin/atan2 call the
 * same libm functions (atan2 through CPython's special cases, copied in m_atan2), math.degrees
 * and math.radians multiply by the same constants, and math.hypot is called from the math module
 * itself (CPython has its own algorithm for it). The build turns off contraction into fused
 * multiply-adds (-ffp-contract=off), which would round once where Python rounds twice.
 * A division by zero raises ZeroDivisionError, as it did in Python.
 *
 * Its length (over the house's ~600 lines) is C's: every call into Python is checked and every
 * reference released on each way out; the loop itself reads as ride.py's docstring lists it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

/* CPython's math.degrees / math.radians constants (Modules/mathmodule.c) */
static const double radToDeg = 180.0 / 3.14159265358979323846;
static const double degToRad = 3.14159265358979323846 / 180.0;

/* CPython's math.atan2 (Modules/mathmodule.c, m_atan2): its special cases, then libm's atan2 */
static double
m_atan2(double y, double x)
{
    if (isnan(x) || isnan(y))
        return NAN;
    if (isinf(y)) {
        if (isinf(x)) {
            if (copysign(1., x) == 1.)
                return copysign(0.25 * 3.14159265358979323846, y);
            else
                return copysign(0.75 * 3.14159265358979323846, y);
        }
        return copysign(0.5 * 3.14159265358979323846, y);
    }
    if (isinf(x) || y == 0.) {
        if (copysign(1., x) == 1.)
            return copysign(0., y);
        else
            return copysign(3.14159265358979323846, y);
    }
    return atan2(y, x);
}

static int
zero_division(void)
{
    PyErr_SetString(PyExc_ZeroDivisionError, "float division by zero");
    return -1;
}

/* ------------------------------------------------------------------------------------------- */
/* Track: the arc-length queries of polyline.Cursor over its precomputed segments              */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n_lengths;  /* vertices */
    Py_ssize_t last;       /* the last segment's index */
    double total, prune;
    double *lengths;       /* n_lengths */
    double *segments;      /* per segment: ax, ay, dx, dy, span, along, length */
    double *reach;         /* per segment: mid x, mid y, half length widened */
    double *directions;    /* per segment: cos, sin, 0 */
} Track;

static void
track_free_arrays(Track *self)
{
    PyMem_Free(self->lengths);
    PyMem_Free(self->segments);
    PyMem_Free(self->reach);
    PyMem_Free(self->directions);
    self->lengths = self->segments = self->reach = self->directions = NULL;
}

static void
Track_dealloc(Track *self)
{
    track_free_arrays(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* rows (a sequence of sequences of floats, each `width` long) into a new C array */
static double *
read_rows(PyObject *rows, Py_ssize_t count, Py_ssize_t width, const char *what)
{
    PyObject *fast = PySequence_Fast(rows, what);
    if (fast == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd rows, expected %zd", what, PySequence_Fast_GET_SIZE(fast), count);
        Py_DECREF(fast);
        return NULL;
    }
    double *out = PyMem_Malloc(sizeof(double) * (size_t)(count * width + 1));
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (width == 1) {
            out[i] = PyFloat_AsDouble(item);
            if (out[i] == -1.0 && PyErr_Occurred())
                goto fail;
            continue;
        }
        PyObject *row = PySequence_Fast(item, what);
        if (row == NULL)
            goto fail;
        if (PySequence_Fast_GET_SIZE(row) != width) {
            PyErr_Format(PyExc_ValueError, "%s: a row of %zd, expected %zd", what, PySequence_Fast_GET_SIZE(row), width);
            Py_DECREF(row);
            goto fail;
        }
        for (Py_ssize_t j = 0; j < width; j++) {
            double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, j));
            if (v == -1.0 && PyErr_Occurred()) {
                Py_DECREF(row);
                goto fail;
            }
            out[i * width + j] = v;
        }
        Py_DECREF(row);
    }
    Py_DECREF(fast);
    return out;
fail:
    Py_DECREF(fast);
    PyMem_Free(out);
    return NULL;
}

static int
Track_init(Track *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"lengths", "segments", "reach", "directions", "prune_margin", NULL};
    PyObject *lengths, *segments, *reach, *directions;
    double prune;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOd", kwlist, &lengths, &segments, &reach, &directions, &prune))
        return -1;
    Py_ssize_t n = PySequence_Size(lengths);
    if (n < 0)
        return -1;
    if (n < 2) {
        PyErr_SetString(PyExc_ValueError, "a track needs at least two vertices");
        return -1;
    }
    double *l = read_rows(lengths, n, 1, "lengths");
    double *s = l ? read_rows(segments, n - 1, 7, "segments") : NULL;
    double *r = s ? read_rows(reach, n - 1, 3, "reach") : NULL;
    double *d = r ? read_rows(directions, n - 1, 3, "directions") : NULL;
    if (d == NULL) {
        PyMem_Free(l);
        PyMem_Free(s);
        PyMem_Free(r);
        return -1;
    }
    track_free_arrays(self);
    self->lengths = l;
    self->segments = s;
    self->reach = r;
    self->directions = d;
    self->n_lengths = n;
    self->last = n - 2;
    self->total = l[n - 1];
    self->prune = prune;
    return 0;
}

/* bisect.bisect_right(lengths, x) */
static Py_ssize_t
bisect_right(const double *a, Py_ssize_t n, double x)
{
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = ((size_t)lo + hi) / 2;
        if (x < a[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Cursor._segment: the segment at s clamped to the path */
static Py_ssize_t
track_segment(const Track *tr, double s)
{
    double total = tr->total;
    s = 0.0 > s ? 0.0 : s;
    s = total < s ? total : s;
    Py_ssize_t k = bisect_right(tr->lengths, tr->n_lengths, s) - 1;
    if (k < 0)
        k = 0;
    return k < tr->last ? k : tr->last;
}

/* polyline._distance_along */
static void
distance_along(const double *seg, double x, double y, double *distance, double *along_out)
{
    double ax = seg[0], ay = seg[1], dx = seg[2], dy = seg[3], span = seg[4], along = seg[5], length = seg[6];
    double t;
    if (span <= 0) {
        t = 0.0;
    }
    else {
        t = ((x - ax) * dx + (y - ay) * dy) / span;
        if (t < 0.0)
            t = 0.0;
        else if (t > 1.0)
            t = 1.0;
    }
    double ex = ax + t * dx - x, ey = ay + t * dy - y;
    *distance = ex * ex + ey * ey;
    *along_out = along + t * length;
}

/* Cursor.project */
static double
track_project(const Track *tr, double x, double y, double s_from, double window)
{
    const double *lengths = tr->lengths;
    Py_ssize_t n = tr->n_lengths, last = tr->last;
    Py_ssize_t first = bisect_right(lengths, n, s_from - 1.0) - 1;
    Py_ssize_t end = bisect_right(lengths, n, s_from + window) - 1;
    first = first < 0 ? 0 : first < last ? first : last;
    end = end < 0 ? 0 : end < last ? end : last;
    if (first > end)
        return s_from;
    Py_ssize_t start = bisect_right(lengths, n, s_from) - 1;
    start = start < first ? first : start > end ? end : start;
    double best, best_s;
    distance_along(tr->segments + 7 * start, x, y, &best, &best_s);
    Py_ssize_t best_k = start;
    if (!(best < INFINITY)) {
        best = INFINITY;
        best_s = s_from;
        best_k = end + 1;
    }
    double radius = sqrt(best) * (1.0 + tr->prune);
    for (Py_ssize_t k = first; k <= end; k++) {
        const double *reach = tr->reach + 3 * k;
        double ex = x - reach[0], ey = y - reach[1], r = radius + reach[2];
        if (k == start || ex * ex + ey * ey > r * r)
            continue;
        double distance, along;
        distance_along(tr->segments + 7 * k, x, y, &distance, &along);
        if (distance < best || (distance == best && k < best_k)) {
            best = distance;
            best_s = along;
            best_k = k;
            radius = sqrt(best) * (1.0 + tr->prune);
        }
    }
    return best_s;
}

/* Cursor.point_at */
static void
track_point_at(const Track *tr, double s, double *px, double *py)
{
    double total = tr->total;
    const double *lengths = tr->lengths;
    s = 0.0 > s ? 0.0 : s;
    s = total < s ? total : s;
    Py_ssize_t k = bisect_right(lengths, tr->n_lengths, s) - 1;
    k = k < 0 ? 0 : k < tr->last ? k : tr->last;
    const double *seg = tr->segments + 7 * k;
    double along = seg[5];
    double span = lengths[k + 1] - along;
    double f = span <= 0 ? 0.0 : (s - along) / span;
    *px = seg[0] + f * seg[2];
    *py = seg[1] + f * seg[3];
}

static PyObject *
Track_project(Track *self, PyObject *args)
{
    double x, y, s_from, window = 2.0;
    if (!PyArg_ParseTuple(args, "ddd|d", &x, &y, &s_from, &window))
        return NULL;
    return PyFloat_FromDouble(track_project(self, x, y, s_from, window));
}

static PyObject *
Track_point_at(Track *self, PyObject *arg)
{
    double s = PyFloat_AsDouble(arg), x, y;
    if (s == -1.0 && PyErr_Occurred())
        return NULL;
    track_point_at(self, s, &x, &y);
    return Py_BuildValue("(dd)", x, y);
}

static PyObject *
Track_segment(Track *self, PyObject *arg)
{
    double s = PyFloat_AsDouble(arg);
    if (s == -1.0 && PyErr_Occurred())
        return NULL;
    return PyLong_FromSsize_t(track_segment(self, s));
}

static PyMethodDef Track_methods[] = {
    {"project", (PyCFunction)Track_project, METH_VARARGS,
     "project(x, y, s_from, window=2.0): Cursor.project (distance along the path of the nearest point)"},
    {"point_at", (PyCFunction)Track_point_at, METH_O, "point_at(s): Cursor.point_at"},
    {"segment", (PyCFunction)Track_segment, METH_O, "segment(s): the segment at s, clamped to the path"},
    {NULL}
};

static PyTypeObject TrackType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "entropy3d.physics._rideloop.Track",
    .tp_doc = "A polyline's arc-length queries over polyline.Cursor's precomputed segments.",
    .tp_basicsize = sizeof(Track),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Track_init,
    .tp_dealloc = (destructor)Track_dealloc,
    .tp_methods = Track_methods,
};

/* ------------------------------------------------------------------------------------------- */
/* The controller's rotations (ride.py's _rotation_to and _angular_velocity)                    */

/* Rotation matrix (row-major) with x along forward (made perpendicular to up) and z along up */
static int
rotation_to(const double *forward, const double *up, double *out)
{
    double u0 = up[0], u1 = up[1], u2 = up[2];
    double norm = sqrt(u0 * u0 + u1 * u1 + u2 * u2);
    if (norm == 0.0)
        return zero_division();
    double k = 1.0 / norm;
    u0 = u0 * k, u1 = u1 * k, u2 = u2 * k;
    double f0 = forward[0], f1 = forward[1], f2 = forward[2];
    double along = f0 * u0 + f1 * u1 + f2 * u2;
    double x0 = f0 - along * u0, x1 = f1 - along * u1, x2 = f2 - along * u2;
    double length = sqrt(x0 * x0 + x1 * x1 + x2 * x2);
    if (length < 1e-9) {
        /* _cross((0.0, 1.0, 0.0), (u0, u1, u2)) */
        x0 = 1.0 * u2 - 0.0 * u1;
        x1 = 0.0 * u0 - 0.0 * u2;
        x2 = 0.0 * u1 - 1.0 * u0;
        length = sqrt(x0 * x0 + x1 * x1 + x2 * x2);
    }
    if (length == 0.0)
        return zero_division();
    k = 1.0 / length;
    x0 = x0 * k, x1 = x1 * k, x2 = x2 * k;
    out[0] = x0; out[1] = u1 * x2 - u2 * x1; out[2] = u0;
    out[3] = x1; out[4] = u2 * x0 - u0 * x2; out[5] = u1;
    out[6] = x2; out[7] = u0 * x1 - u1 * x0; out[8] = u2;
    return 0;
}

/* World angular velocity turning current into target (row-major) in about time_constant */
static void
angular_velocity(const double *c, const double *t, double time_constant, double *out)
{
    double d00 = t[0] * c[0] + t[1] * c[1] + t[2] * c[2];
    double d11 = t[3] * c[3] + t[4] * c[4] + t[5] * c[5];
    double d22 = t[6] * c[6] + t[7] * c[7] + t[8] * c[8];
    double cos_angle = (d00 + d11 + d22 - 1.0) / 2.0;
    double angle = acos(cos_angle > 1.0 ? 1.0 : cos_angle < -1.0 ? -1.0 : cos_angle);
    out[0] = out[1] = out[2] = 0.0;
    if (angle < 1e-9)
        return;
    double a0 = (t[6] * c[3] + t[7] * c[4] + t[8] * c[5]) - (t[3] * c[6] + t[4] * c[7] + t[5] * c[8]);
    double a1 = (t[0] * c[6] + t[1] * c[7] + t[2] * c[8]) - (t[6] * c[0] + t[7] * c[1] + t[8] * c[2]);
    double a2 = (t[3] * c[0] + t[4] * c[1] + t[5] * c[2]) - (t[0] * c[3] + t[1] * c[4] + t[2] * c[5]);
    double norm = sqrt(a0 * a0 + a1 * a1 + a2 * a2);
    if (norm < 1e-12)
        return;
    double k = angle / norm / time_constant;
    out[0] = a0 * k;
    out[1] = a1 * k;
    out[2] = a2 * k;
}

/* ------------------------------------------------------------------------------------------- */
/* The ride loop                                                                                */

/* what PyBullet's calls are, looked up once a ride on the module it is given */
typedef struct {
    PyObject *contact_points, *pose_of, *matrix_of, *velocity_of, *reset_velocity, *reset_pose, *step;
    PyObject *hypot;
} Calls;

static void
calls_clear(Calls *c)
{
    Py_CLEAR(c->contact_points);
    Py_CLEAR(c->pose_of);
    Py_CLEAR(c->matrix_of);
    Py_CLEAR(c->velocity_of);
    Py_CLEAR(c->reset_velocity);
    Py_CLEAR(c->reset_pose);
    Py_CLEAR(c->step);
    Py_CLEAR(c->hypot);
}

static int
calls_init(Calls *c, PyObject *pybullet)
{
    memset(c, 0, sizeof(*c));
    if (!(c->contact_points = PyObject_GetAttrString(pybullet, "getContactPoints"))
        || !(c->pose_of = PyObject_GetAttrString(pybullet, "getBasePositionAndOrientation"))
        || !(c->matrix_of = PyObject_GetAttrString(pybullet, "getMatrixFromQuaternion"))
        || !(c->velocity_of = PyObject_GetAttrString(pybullet, "getBaseVelocity"))
        || !(c->reset_velocity = PyObject_GetAttrString(pybullet, "resetBaseVelocity"))
        || !(c->reset_pose = PyObject_GetAttrString(pybullet, "resetBasePositionAndOrientation"))
        || !(c->step = PyObject_GetAttrString(pybullet, "stepSimulation"))) {
        calls_clear(c);
        return -1;
    }
    PyObject *math = PyImport_ImportModule("math");
    if (math == NULL) {
        calls_clear(c);
        return -1;
    }
    c->hypot = PyObject_GetAttrString(math, "hypot");
    Py_DECREF(math);
    if (c->hypot == NULL) {
        calls_clear(c);
        return -1;
    }
    return 0;
}

/* three floats of a sequence (a PyBullet vector) */
static int
read3(PyObject *seq, double *out)
{
    PyObject *fast = PySequence_Fast(seq, "a 3-vector");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) < 3) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a 3-vector has fewer than 3 items");
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *
vec3(const double *v)
{
    return Py_BuildValue("(ddd)", v[0], v[1], v[2]);
}

/* The bike body's state (ride.py's _Rider), read once a physics step */
typedef struct {
    PyObject *body, *client;
    double bottom_local[3], to_in;
    double position[3], rotation[9], velocity[3], bottom[3], xy_in[2], z_in;
} Bike;

static int
bike_read(Bike *b, const Calls *calls)
{
    PyObject *pose = PyObject_CallFunctionObjArgs(calls->pose_of, b->body, b->client, NULL);
    if (pose == NULL)
        return -1;
    PyObject *position = PyTuple_Check(pose) && PyTuple_GET_SIZE(pose) == 2 ? PyTuple_GET_ITEM(pose, 0) : NULL;
    PyObject *orientation = position ? PyTuple_GET_ITEM(pose, 1) : NULL;
    if (position == NULL) {
        Py_DECREF(pose);
        PyErr_SetString(PyExc_TypeError, "getBasePositionAndOrientation gave no (position, orientation)");
        return -1;
    }
    if (read3(position, b->position) < 0) {
        Py_DECREF(pose);
        return -1;
    }
    PyObject *matrix = PyObject_CallFunctionObjArgs(calls->matrix_of, orientation, NULL);
    Py_DECREF(pose);
    if (matrix == NULL)
        return -1;
    PyObject *fast = PySequence_Fast(matrix, "a rotation matrix");
    Py_DECREF(matrix);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 9) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "getMatrixFromQuaternion gave no 9 numbers");
        return -1;
    }
    for (int i = 0; i < 9; i++) {
        b->rotation[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (b->rotation[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    PyObject *velocity = PyObject_CallFunctionObjArgs(calls->velocity_of, b->body, b->client, NULL);
    if (velocity == NULL)
        return -1;
    PyObject *linear = PySequence_GetItem(velocity, 0);
    Py_DECREF(velocity);
    if (linear == NULL)
        return -1;
    int bad = read3(linear, b->velocity);
    Py_DECREF(linear);
    if (bad)
        return -1;
    const double *r = b->rotation, *p = b->position;
    double b0 = b->bottom_local[0], b1 = b->bottom_local[1], b2 = b->bottom_local[2];
    double x = p[0] + r[0] * b0 + r[1] * b1 + r[2] * b2;
    double y = p[1] + r[3] * b0 + r[4] * b1 + r[5] * b2;
    double z = p[2] + r[6] * b0 + r[7] * b1 + r[8] * b2;
    double to_in = b->to_in;
    b->bottom[0] = x, b->bottom[1] = y, b->bottom[2] = z;
    b->xy_in[0] = x * to_in, b->xy_in[1] = y * to_in;
    b->z_in = z * to_in;
    return 0;
}

static double
bike_facing_deg(const Bike *b)
{
    return m_atan2(b->rotation[3], b->rotation[0]) * radToDeg;
}

/* ride.py's constants and the ride's figures, from ride() */
typedef struct {
    double dt, to_m, to_in, speed_m, slice_end, limit_end, width_in, depth_in, step_height_m, break_mps;
    double touch_distance_m, support_normal_z, separating_mps, approach_mps, min_flight_s, lookahead_in;
    double turn_time_s, over_edge_drop_in;
    long record_every;
} Figures;

/* what a BodyInfo says, as the loop asks it */
enum { KIND_OTHER, KIND_BIKE, KIND_FLOOR };

static int
info_kind(PyObject *info)
{
    PyObject *kind = PyObject_GetAttrString(info, "kind");
    if (kind == NULL)
        return -1;
    int result = KIND_OTHER;
    if (PyUnicode_Check(kind)) {
        if (PyUnicode_CompareWithASCIIString(kind, "bike") == 0)
            result = KIND_BIKE;
        else if (PyUnicode_CompareWithASCIIString(kind, "floor") == 0)
            result = KIND_FLOOR;
    }
    Py_DECREF(kind);
    return result;
}

static int
info_is_debris(PyObject *info)
{
    PyObject *dynamic = PyObject_GetAttrString(info, "dynamic");
    if (dynamic == NULL)
        return -1;
    int truth = PyObject_IsTrue(dynamic);
    Py_DECREF(dynamic);
    if (truth <= 0)
        return truth;
    int kind = info_kind(info);
    return kind < 0 ? -1 : kind != KIND_BIKE;
}

/* the last step with the wheels down: (t, progress, xy, z, velocity in m/s, piece, kind) */
typedef struct {
    double t, progress, x, y, z, velocity[3];
    PyObject *piece, *kind;  /* owned */
} Ground;

static PyObject *
ground_tuple(const Ground *g)
{
    return Py_BuildValue("(dd(dd)d(ddd)OO)", g->t, g->progress, g->x, g->y, g->z,
                         g->velocity[0], g->velocity[1], g->velocity[2], g->piece, g->kind);
}

static int
append_new(PyObject *list, PyObject *item)
{
    if (item == NULL)
        return -1;
    int r = PyList_Append(list, item);
    Py_DECREF(item);
    return r;
}

static int
set_velocity(const Calls *calls, PyObject *body, const double *velocity, const double *spin, PyObject *client)
{
    PyObject *v = vec3(velocity), *w = v ? vec3(spin) : NULL;
    PyObject *r = w ? PyObject_CallFunctionObjArgs(calls->reset_velocity, body, v, w, client, NULL) : NULL;
    Py_XDECREF(v);
    Py_XDECREF(w);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

#define MAX_TOUCHING 64

static PyObject *
ride_loop(PyObject *module, PyObject *args)
{
    PyObject *pybullet, *body, *client, *bike_id, *track_obj, *bottom_local, *world, *bodies, *order, *edges;
    PyObject *debris_impulse, *debris_contact, *destroyed, *contacts, *flights, *make_touch, *with_impulse;
    PyObject *make_flight;
    Figures f;
    int in_air, initial_air_steps;
    if (!PyArg_ParseTuple(args, "OOOUO!O(dddddddddddddddddd)lpiOOOOOOOOOOOO:ride_loop",
                          &pybullet, &body, &client, &bike_id, &TrackType, &track_obj, &bottom_local,
                          &f.dt, &f.to_m, &f.to_in, &f.speed_m, &f.slice_end, &f.limit_end, &f.width_in,
                          &f.depth_in, &f.step_height_m, &f.break_mps, &f.touch_distance_m, &f.support_normal_z,
                          &f.separating_mps, &f.approach_mps, &f.min_flight_s, &f.lookahead_in, &f.turn_time_s,
                          &f.over_edge_drop_in, &f.record_every, &in_air, &initial_air_steps, &world, &bodies,
                          &order, &edges, &debris_impulse, &debris_contact, &destroyed, &contacts, &flights,
                          &make_touch, &with_impulse, &make_flight))
        return NULL;
    if (!PyDict_Check(bodies) || !PyDict_Check(order) || !PyDict_Check(debris_impulse)
        || !PyDict_Check(debris_contact) || !PySet_Check(destroyed) || !PyList_Check(contacts)
        || !PyList_Check(flights) || f.record_every <= 0) {
        PyErr_SetString(PyExc_TypeError, "ride_loop: bodies, order, debris_impulse and debris_contact are dicts, "
                        "destroyed a set, contacts and flights lists, record_every positive");
        return NULL;
    }
    const Track *track = (const Track *)track_obj;
    Calls calls;
    if (calls_init(&calls, pybullet) < 0)
        return NULL;

    Bike bike = {.body = body, .client = client, .to_in = f.to_in};
    PyObject *result = NULL, *crash = NULL, *left_table = Py_None, *outcome = NULL, *trajectory = NULL;
    PyObject *minus_one = NULL, *minus_two = NULL, *remove_body = NULL, *edge_crossed = NULL;
    Ground last_ground = {0};
    PyObject *touching[MAX_TOUCHING];
    Py_ssize_t n_touching = 0;
    Py_INCREF(left_table);

    if (read3(bottom_local, bike.bottom_local) < 0 || bike_read(&bike, &calls) < 0)
        goto done;
    if (!(minus_one = PyLong_FromLong(-1)) || !(minus_two = PyLong_FromLong(-2))
        || !(remove_body = PyObject_GetAttrString(world, "remove_body"))
        || !(edge_crossed = PyObject_GetAttrString(world, "edge_crossed")) || !(trajectory = PyList_New(0)))
        goto done;

    const double dt = f.dt, total = track->total;
    if (append_new(trajectory, Py_BuildValue("(ddddd)", 0.0, bike.xy_in[0], bike.xy_in[1], bike.z_in,
                                             bike_facing_deg(&bike))) < 0)
        goto done;
    double progress = track_project(track, bike.xy_in[0], bike.xy_in[1], 0.0, 2.0);
    last_ground = (Ground){0.0, progress, bike.xy_in[0], bike.xy_in[1], bike.z_in,
                           {bike.velocity[0], bike.velocity[1], bike.velocity[2]}, Py_None, NULL};
    Py_INCREF(Py_None);
    if (!(last_ground.kind = PyUnicode_FromString(in_air ? "air" : "ground")))
        goto done;
    long air_steps = initial_air_steps;
    int carried_over = in_air;
    double commanded[3] = {bike.velocity[0], bike.velocity[1], bike.velocity[2]};
    double flight_max_z = bike.z_in;
    const char *outcome_name = "stalled";
    long steps = 0;
    double t = 0.0, travelled = 0.0;
    double last_xy[2] = {bike.xy_in[0], bike.xy_in[1]};

    for (;;) {
        PyObject *support = NULL;  /* borrowed from bodies (alive: bodies holds it) */
        double support_force = -1.0;
        int grounded = 0;
        double nx = 0.0, ny = 0.0, nz = 0.0;
        for (Py_ssize_t i = 0; i < n_touching; i++)
            Py_CLEAR(touching[i]);
        n_touching = 0;

        PyObject *points_obj = PyObject_CallFunctionObjArgs(calls.contact_points, body, minus_one, minus_two,
                                                            minus_two, client, NULL);
        if (points_obj == NULL)
            goto done;
        PyObject *points = PySequence_List(points_obj);
        Py_DECREF(points_obj);
        if (points == NULL)
            goto done;
        Py_ssize_t n_points = PyList_GET_SIZE(points);
        /* in the order the bodies were added (see ride.py): a stable sort on order.get(body, -1) */
        if (n_points > 1) {
            PyObject *first_body = PySequence_GetItem(PyList_GET_ITEM(points, 0), 2);
            int mixed = 0;
            for (Py_ssize_t i = 0; first_body && i < n_points && !mixed; i++) {
                PyObject *other = PySequence_GetItem(PyList_GET_ITEM(points, i), 2);
                if (other == NULL) {
                    Py_CLEAR(first_body);
                    break;
                }
                mixed = PyObject_RichCompareBool(other, first_body, Py_NE);
                Py_DECREF(other);
                if (mixed < 0)
                    Py_CLEAR(first_body);
            }
            if (first_body == NULL) {
                Py_DECREF(points);
                goto done;
            }
            Py_DECREF(first_body);
            if (mixed) {
                long keys[n_points];
                for (Py_ssize_t i = 0; i < n_points; i++) {
                    PyObject *other = PySequence_GetItem(PyList_GET_ITEM(points, i), 2);
                    PyObject *key = other ? PyDict_GetItemWithError(order, other) : NULL;
                    Py_XDECREF(other);
                    if (key == NULL && PyErr_Occurred()) {
                        Py_DECREF(points);
                        goto done;
                    }
                    keys[i] = key ? PyLong_AsLong(key) : -1;
                    if (keys[i] == -1 && PyErr_Occurred()) {
                        Py_DECREF(points);
                        goto done;
                    }
                }
                for (Py_ssize_t i = 1; i < n_points; i++) {  /* insertion sort: stable, few points */
                    PyObject *item = PyList_GET_ITEM(points, i);
                    long key = keys[i];
                    Py_ssize_t j = i;
                    for (; j > 0 && keys[j - 1] > key; j--) {
                        keys[j] = keys[j - 1];
                        PyList_SET_ITEM(points, j, PyList_GET_ITEM(points, j - 1));
                    }
                    keys[j] = key;
                    PyList_SET_ITEM(points, j, item);
                }
            }
        }
        for (Py_ssize_t i = 0; i < n_points; i++) {
            PyObject *point = PySequence_Fast(PyList_GET_ITEM(points, i), "a contact point");
            if (point == NULL || PySequence_Fast_GET_SIZE(point) < 10) {
                if (point != NULL) {
                    PyErr_SetString(PyExc_ValueError, "a contact point with fewer than 10 fields");
                    Py_DECREF(point);
                }
                Py_DECREF(points);
                goto done;
            }
            PyObject **field = PySequence_Fast_ITEMS(point);
            PyObject *other = field[2];
            PyObject *info = PyDict_GetItemWithError(bodies, other);
            double distance = PyFloat_AsDouble(field[8]);
            double force = PyFloat_AsDouble(field[9]);
            double normal[3], on_bike[3];
            int debris = 0;
            if (PyErr_Occurred() || (info != NULL && (read3(field[7], normal) < 0 || read3(field[5], on_bike) < 0)))
                goto point_failed;
            if (info == NULL || distance > f.touch_distance_m) {
                Py_DECREF(point);
                continue;
            }
            if ((debris = info_is_debris(info)) < 0)
                goto point_failed;
            if (debris) {
                PyObject *before = PyDict_GetItemWithError(debris_impulse, other);
                if (before == NULL && PyErr_Occurred())
                    goto point_failed;
                double sum = (before ? PyFloat_AsDouble(before) : 0.0) + force * dt;
                PyObject *impulse = PyFloat_FromDouble(sum);
                if (impulse == NULL || PyDict_SetItem(debris_impulse, other, impulse) < 0) {
                    Py_XDECREF(impulse);
                    goto point_failed;
                }
                Py_DECREF(impulse);
                int known = PyDict_Contains(debris_contact, other);
                if (known < 0)
                    goto point_failed;
                if (!known) {
                    PyObject *touch = PyObject_CallFunction(make_touch, "OsdOdOd", info, "debris", t, field[5],
                                                            progress, field[7], bike_facing_deg(&bike));
                    if (touch == NULL || PyDict_SetItem(debris_contact, other, touch) < 0) {
                        Py_XDECREF(touch);
                        goto point_failed;
                    }
                    Py_DECREF(touch);
                }
                int seen = 0;
                for (Py_ssize_t j = 0; j < n_touching && !seen; j++) {
                    seen = PyObject_RichCompareBool(touching[j], other, Py_EQ);
                    if (seen < 0)
                        goto point_failed;
                }
                if (!seen) {
                    if (n_touching == MAX_TOUCHING) {
                        PyErr_SetString(PyExc_RuntimeError, "a bike touches more than 64 destructibles at once");
                        goto point_failed;
                    }
                    Py_INCREF(other);
                    touching[n_touching++] = other;
                }
                Py_DECREF(point);
                continue;
            }
            if (normal[2] > f.support_normal_z) {
                if (carried_over && (bike.velocity[0] * normal[0] + bike.velocity[1] * normal[1]
                                     + bike.velocity[2] * normal[2]) > f.separating_mps) {
                    Py_DECREF(point);
                    continue;  /* a bike carried over in the air, still rising, has not landed */
                }
                double weight = 1e-6 > force ? 1e-6 : force;
                nx = nx + normal[0] * weight, ny = ny + normal[1] * weight, nz = nz + normal[2] * weight;
                grounded = 1;
                if (force > support_force)
                    support = info, support_force = force;
            }
            else if (crash == NULL) {
                int kind = info_kind(info);
                if (kind < 0)
                    goto point_failed;
                if (kind != KIND_FLOOR && -(commanded[0] * normal[0] + commanded[1] * normal[1]
                                            + commanded[2] * normal[2]) > f.approach_mps) {
                    const double *bottom = bike.bottom;
                    double d0 = on_bike[0] - bottom[0], d1 = on_bike[1] - bottom[1], d2 = on_bike[2] - bottom[2];
                    if (d0 * bike.rotation[2] + d1 * bike.rotation[5] + d2 * bike.rotation[8] > f.step_height_m) {
                        PyObject *touch = PyObject_CallFunction(make_touch, "OsdOdOd", info, "crash", t, field[5],
                                                                progress, field[7], bike_facing_deg(&bike));
                        crash = touch ? PyObject_CallFunction(with_impulse, "Od", touch, force * dt) : NULL;
                        Py_XDECREF(touch);
                        if (crash == NULL)
                            goto point_failed;
                    }
                }
            }
            Py_DECREF(point);
            continue;
        point_failed:
            Py_DECREF(point);
            Py_DECREF(points);
            goto done;
        }
        Py_DECREF(points);

        /* a destructible the bike touches breaks when the hit changed its speed by enough (ride.py) */
        for (Py_ssize_t j = 0; j < n_touching; j++) {
            PyObject *other = touching[j];
            int gone = PySet_Contains(destroyed, other);
            if (gone < 0)
                goto done;
            if (gone)
                continue;
            PyObject *velocity = PyObject_CallFunctionObjArgs(calls.velocity_of, other, client, NULL);
            PyObject *linear = velocity ? PySequence_GetItem(velocity, 0) : NULL;
            Py_XDECREF(velocity);
            double v[3];
            int bad = linear == NULL || read3(linear, v) < 0;
            Py_XDECREF(linear);
            if (bad)
                goto done;
            PyObject *info = PyDict_GetItemWithError(bodies, other);
            if (info == NULL) {
                if (!PyErr_Occurred())
                    PyErr_SetObject(PyExc_KeyError, other);
                goto done;
            }
            PyObject *risk_obj = PyObject_GetAttrString(info, "risk");
            if (risk_obj == NULL)
                goto done;
            int truth = PyObject_IsTrue(risk_obj);
            double risk = truth > 0 ? PyFloat_AsDouble(risk_obj) : 1.0;  /* risk or 1 */
            Py_DECREF(risk_obj);
            if (truth < 0 || PyErr_Occurred())
                goto done;
            if (sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) > f.break_mps * risk) {
                if (PySet_Add(destroyed, other) < 0)
                    goto done;
                PyObject *r = PyObject_CallFunctionObjArgs(remove_body, other, NULL);
                if (r == NULL)
                    goto done;
                Py_DECREF(r);
            }
        }
        carried_over = carried_over && !grounded;
        if (crash != NULL) {
            if (PyList_Append(contacts, crash) < 0)
                goto done;
            outcome_name = "crashed";
            break;
        }

        double x_in = bike.xy_in[0], y_in = bike.xy_in[1], z_in = bike.z_in;
        if (grounded) {
            if (air_steps && air_steps * dt >= f.min_flight_s) {
                PyObject *launch = ground_tuple(&last_ground);
                PyObject *flight = launch ? PyObject_CallFunction(make_flight, "Od(dd)ddO", launch, t, x_in, y_in,
                                                                  z_in, flight_max_z, Py_True) : NULL;
                Py_XDECREF(launch);
                if (append_new(flights, flight) < 0)
                    goto done;
            }
            air_steps = 0;
            progress = track_project(track, x_in, y_in, progress, 2.0);
            if (support == NULL) {
                PyErr_SetString(PyExc_AttributeError, "'NoneType' object has no attribute 'piece_id'");
                goto done;
            }
            PyObject *piece = PyObject_GetAttrString(support, "piece_id");
            PyObject *kind = piece ? PyObject_GetAttrString(support, "kind") : NULL;
            if (kind == NULL) {
                Py_XDECREF(piece);
                goto done;
            }
            Py_SETREF(last_ground.piece, piece);
            Py_SETREF(last_ground.kind, kind);
            last_ground.t = t, last_ground.progress = progress;
            last_ground.x = x_in, last_ground.y = y_in, last_ground.z = z_in;
            memcpy(last_ground.velocity, bike.velocity, sizeof bike.velocity);
            flight_max_z = z_in;
            if (progress >= total - 0.02) {
                outcome_name = "completed";
                break;
            }
        }
        else {
            air_steps += 1;
            flight_max_z = z_in > flight_max_z ? z_in : flight_max_z;  /* max(flight_max_z, z_in) */
            double along = track_project(track, x_in, y_in, progress, total);
            progress = along > progress ? along : progress;  /* max(progress, along) */
        }

        if (!(0 <= x_in && x_in <= f.width_in && 0 <= y_in && y_in <= f.depth_in)) {
            PyObject *edge = PyObject_CallFunction(edge_crossed, "dd", x_in, y_in);
            if (edge == NULL)
                goto done;
            if (edge != Py_None) {
                if (left_table == Py_None) {  /* left_table or edge */
                    Py_INCREF(edge);
                    Py_SETREF(left_table, edge);
                }
                PyObject *kind = PyObject_CallMethod(edges, "get", "O", edge);
                int not_cliff = -1;
                if (kind != NULL) {
                    PyObject *cliff = PyUnicode_FromString("cliff");
                    not_cliff = cliff ? PyObject_RichCompareBool(kind, cliff, Py_NE) : -1;
                    Py_XDECREF(cliff);
                    Py_DECREF(kind);
                }
                Py_DECREF(edge);
                if (not_cliff < 0)
                    goto done;
                if (not_cliff || z_in < -f.over_edge_drop_in) {
                    outcome_name = "left_table";
                    break;
                }
            }
            else {
                Py_DECREF(edge);
            }
        }
        if (t >= f.slice_end && air_steps * dt >= f.min_flight_s && left_table == Py_None) {
            outcome_name = "airborne";
            break;
        }
        if (t >= f.limit_end) {
            outcome_name = left_table != Py_None && PyObject_IsTrue(left_table) ? "left_table" : "stalled";
            break;
        }

        double spin[3];
        if (grounded && left_table == Py_None) {
            double length = sqrt(nx * nx + ny * ny + nz * nz);
            if (length == 0.0) {
                zero_division();
                goto done;
            }
            double k = 1.0 / length;
            nx = nx * k, ny = ny * k, nz = nz * k;
            double ahead = progress + f.lookahead_in, tx, ty;
            track_point_at(track, total < ahead ? total : ahead, &tx, &ty);
            double dx = (tx - x_in) * f.to_m, dy = (ty - y_in) * f.to_m, dz = 0.0;
            if (sqrt(dx * dx + dy * dy + dz * dz) < 1e-9) {
                double facing = bike_facing_deg(&bike) * degToRad;
                dx = cos(facing), dy = sin(facing), dz = 0.0;
            }
            double across = dx * nx + dy * ny + dz * nz;
            double ax = dx - across * nx, ay = dy - across * ny, az = dz - across * nz;
            double speed = sqrt(ax * ax + ay * ay + az * az);
            if (speed == 0.0) {
                zero_division();
                goto done;
            }
            k = f.speed_m / speed;
            double velocity[3] = {ax * k, ay * k, az * k};
            double face[9], normal[3] = {nx, ny, nz};
            if (rotation_to(track->directions + 3 * track_segment(track, progress), normal, face) < 0)
                goto done;
            angular_velocity(bike.rotation, face, f.turn_time_s, spin);
            if (set_velocity(&calls, body, velocity, spin, client) < 0)
                goto done;
            memcpy(commanded, velocity, sizeof velocity);
        }
        else {
            memcpy(commanded, bike.velocity, sizeof commanded);
            double level[9], forward[3] = {bike.rotation[0], bike.rotation[3], bike.rotation[6]};
            double up[3] = {0.0, 0.0, 1.0};
            if (rotation_to(forward, up, level) < 0)
                goto done;
            angular_velocity(bike.rotation, level, 5 * f.turn_time_s, spin);
            if (set_velocity(&calls, body, bike.velocity, spin, client) < 0)
                goto done;
        }

        PyObject *stepped = PyObject_CallFunctionObjArgs(calls.step, client, NULL);
        if (stepped == NULL)
            goto done;
        Py_DECREF(stepped);
        steps += 1;
        t = steps * dt;
        if (bike_read(&bike, &calls) < 0)
            goto done;
        if (!(isfinite(bike.position[0]) && isfinite(bike.position[1]) && isfinite(bike.position[2]))) {
            char *when = PyOS_double_to_string(t, 'f', 4, 0, NULL);
            if (when != NULL) {
                PyErr_Format(PyExc_FloatingPointError, "bike %U left the numbers at t=%ss", bike_id, when);
                PyMem_Free(when);
            }
            goto done;
        }
        if (grounded) {
            PyObject *d = PyObject_CallFunction(calls.hypot, "dd", bike.xy_in[0] - last_xy[0],
                                                bike.xy_in[1] - last_xy[1]);
            if (d == NULL)
                goto done;
            travelled += PyFloat_AsDouble(d);
            Py_DECREF(d);
        }
        last_xy[0] = bike.xy_in[0], last_xy[1] = bike.xy_in[1];
        if (steps % f.record_every == 0
            && append_new(trajectory, Py_BuildValue("(ddddd)", t, bike.xy_in[0], bike.xy_in[1], bike.z_in,
                                                    bike_facing_deg(&bike))) < 0)
            goto done;
    }

    PyObject *launch = ground_tuple(&last_ground);
    if (launch == NULL || !(outcome = PyUnicode_FromString(outcome_name))) {
        Py_XDECREF(launch);
        goto done;
    }
    /* (outcome, left_table, steps, t, progress, travelled, air_steps, last_ground, flight_max_z,
        trajectory, the bike's (xy_in, z_in, facing_deg, velocity in m/s)) */
    result = Py_BuildValue("(OOldddlNdO((dd)dd(ddd)))", outcome, left_table, steps, t, progress, travelled, air_steps,
                           launch, flight_max_z, trajectory, bike.xy_in[0], bike.xy_in[1], bike.z_in,
                           bike_facing_deg(&bike), bike.velocity[0], bike.velocity[1], bike.velocity[2]);
done:
    for (Py_ssize_t i = 0; i < n_touching; i++)
        Py_CLEAR(touching[i]);
    Py_XDECREF(outcome);
    Py_XDECREF(trajectory);
    Py_XDECREF(crash);
    Py_XDECREF(left_table);
    Py_XDECREF(last_ground.piece);
    Py_XDECREF(last_ground.kind);
    Py_XDECREF(minus_one);
    Py_XDECREF(minus_two);
    Py_XDECREF(remove_body);
    Py_XDECREF(edge_crossed);
    calls_clear(&calls);
    return result;
}

/* ride.py's _settle: the bike held where the ride left it while knocked debris comes to rest */
static PyObject *
hold_still(PyObject *module, PyObject *args)
{
    PyObject *pybullet, *body, *client, *position, *orientation;
    long steps;
    if (!PyArg_ParseTuple(args, "OOOOOl:hold_still", &pybullet, &body, &client, &position, &orientation, &steps))
        return NULL;
    Calls calls;
    if (calls_init(&calls, pybullet) < 0)
        return NULL;
    PyObject *still = Py_BuildValue("(ddd)", 0.0, 0.0, 0.0);
    if (still == NULL) {
        calls_clear(&calls);
        return NULL;
    }
    PyObject *result = Py_None;
    for (long i = 0; i < steps && result != NULL; i++) {
        PyObject *r = PyObject_CallFunctionObjArgs(calls.reset_pose, body, position, orientation, client, NULL);
        Py_XDECREF(r);
        r = r ? PyObject_CallFunctionObjArgs(calls.reset_velocity, body, still, still, client, NULL) : NULL;
        Py_XDECREF(r);
        r = r ? PyObject_CallFunctionObjArgs(calls.step, client, NULL) : NULL;
        Py_XDECREF(r);
        if (r == NULL)
            result = NULL;
    }
    Py_DECREF(still);
    calls_clear(&calls);
    Py_XINCREF(result);
    return result;
}

static PyMethodDef module_methods[] = {
    {"ride_loop", ride_loop, METH_VARARGS, "The ride's per-step loop (physics/ride.py's ride calls it)."},
    {"hold_still", hold_still, METH_VARARGS,
     "hold_still(pybullet, body, client, position, orientation, steps): steps with the body held in place."},
    {NULL}
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_rideloop", "The ride's per-step controller loop in C (see physics/ride.py).", -1,
    module_methods,
};

PyMODINIT_FUNC
PyInit__rideloop(void)
{
    if (PyType_Ready(&TrackType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL)
        return NULL;
    Py_INCREF(&TrackType);
    if (PyModule_AddObject(module, "Track", (PyObject *)&TrackType) < 0) {
        Py_DECREF(&TrackType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
