/* The four edges of a resident directive method's field set to 0, written
 * once: the body of a loop over k from 0 to the longer side, whose pragma
 * (an OpenACC kernel, an OpenMP target region) is the includer's. A macro,
 * not a function, so that no device routine has to be declared for it. */
#ifndef HEAT2D_ZERO_EDGES_H
#define HEAT2D_ZERO_EDGES_H

#define HEAT2D_ZERO_EDGE_CELLS(k, nx, ny, v)                                                       \
    do {                                                                                           \
        const size_t zero_k = (k), zero_nx = (nx), zero_ny = (ny);                                 \
        if (zero_k < zero_nx) {                                                                    \
            (v)[zero_k] = 0;                                                                       \
            (v)[(zero_ny - 1) * zero_nx + zero_k] = 0;                                             \
        }                                                                                          \
        if (zero_k < zero_ny) {                                                                    \
            (v)[zero_k * zero_nx] = 0;                                                             \
            (v)[zero_k * zero_nx + zero_nx - 1] = 0;                                               \
        }                                                                                          \
    } while (0)

#endif /* HEAT2D_ZERO_EDGES_H */
