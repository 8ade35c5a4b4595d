/* What the LOS C modules (_toplines.c, _silhouettes.c) share: numpy's NaN rules for maxima and
 * minima, and taking the caller's arrays as buffers of a known size.
 *
 * np.maximum and np.minimum keep a NaN from either side (C's fmax and fmin skip one, as numpy's
 * np.fmax and np.fmin do); the modules give numpy's answers bit for bit, so they use these. */
#ifndef ENTROPY3D_LOS_NUMPY_RULES_H
#define ENTROPY3D_LOS_NUMPY_RULES_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

static inline double
np_maximum(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    return a > b ? a : b;
}

static inline double
np_minimum(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    return a < b ? a : b;
}

/* a caller's array, held as a buffer while a function reads or writes it */
typedef struct {
    Py_buffer view;
    int held;
} Buffer;

/* Hold ``object`` as a C-contiguous buffer of ``count`` items of ``itemsize`` bytes (any count
 * when ``count`` < 0), writable when asked; 0 with a ValueError naming ``name`` when it is not. */
static int
take(PyObject *object, Buffer *buffer, Py_ssize_t itemsize, Py_ssize_t count, int writable, const char *name)
{
    if (PyObject_GetBuffer(object, &buffer->view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return 0;
    buffer->held = 1;
    if (buffer->view.itemsize != itemsize || (count >= 0 && buffer->view.len != count * itemsize)) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes, got %zd bytes in items of %zd",
                     name, count, itemsize, buffer->view.len, buffer->view.itemsize);
        return 0;
    }
    return 1;
}

/* let go of the buffers held among ``count`` */
static void
release(Buffer *buffers, int count)
{
    for (int k = 0; k < count; k++)
        if (buffers[k].held)
            PyBuffer_Release(&buffers[k].view);
}

#endif
