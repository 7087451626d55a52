/* The two directions of a resident directive method's ping-pong, from one
 * file of argument-free kernels: PASS_HEADER (the backend's, written for
 * PASS_FROM, PASS_TO and PASS(name)) included once reading array[0] into
 * array[1] (the name##_forward kernels) and once the other way round
 * (name##_backward); BY_DIRECTION(kernel, ...) calls the one of a step's
 * direction (forward on even steps), for the includer's step function,
 * which #undefs it after. The pragmas stay in PASS_HEADER. A backend's
 * *_real.c includes this file, with FN defined (heat2d_real.h). Kernels,
 * made in the includer's file: no include guard, on purpose, as
 * PASS_HEADER is included once a direction. */

#define PASS_FROM  0
#define PASS_TO    1
#define PASS(name) FN(name##_forward)
#include PASS_HEADER
#undef PASS_FROM
#undef PASS_TO
#undef PASS
#define PASS_FROM  1
#define PASS_TO    0
#define PASS(name) FN(name##_backward)
#include PASS_HEADER
#undef PASS_FROM
#undef PASS_TO
#undef PASS

#define BY_DIRECTION(kernel, ...)                                                                  \
    do {                                                                                           \
        if (step % 2 == 0)                                                                         \
            FN(kernel##_forward)(__VA_ARGS__);                                                     \
        else                                                                                       \
            FN(kernel##_backward)(__VA_ARGS__);                                                    \
    } while (0)
