#ifndef GRAPHSTORE_CZLIB_SHIM_H
#define GRAPHSTORE_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro; Swift needs a function. windowBits -15 selects raw deflate.
static inline int graphstore_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -15);
}
#endif
