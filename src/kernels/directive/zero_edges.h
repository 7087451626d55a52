/* The four edges of a resident directive method's field set to 0, written
 * once: the body of a loop over k from 0 to the longer side, whose pragma
 * (an OpenACC kernel, an OpenMP target region) is the includer's. A macro,
 * not a function, so that no device routine has to be declared for it. */
#ifndef HEAT2D_ZERO_EDGES_H
#define HEAT2D_ZERO_EDGES_H

#define HEAT2D_ZERO_EDGE_CELLS(k, nx, ny, v)                                                       \
    do {                                                                                           \
        if ((k) < (nx)) {                                                                          \
            (v)[(k)] = 0;                                                                          \
            (v)[((ny) - 1) * (nx) + (k)] = 0;                                                      \
        }                                                                                          \
        if ((k) < (ny)) {                                                                          \
            (v)[(k) * (nx)] = 0;                                                                   \
            (v)[(k) * (nx) + (nx) - 1] = 0;                                                        \
        }                                                                                          \
    } while (0)

#endif /* HEAT2D_ZERO_EDGES_H */
