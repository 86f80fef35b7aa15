/* Symbol visibility of the public API (C99 and C++). The shared library is built with hidden
 * visibility by default, so only declarations marked TENSORBUF_API are exported: the C API,
 * the public C++ headers' functions and classes. Internal code needs no mark. */
#ifndef TENSORBUF_EXPORT_H_
#define TENSORBUF_EXPORT_H_

#if defined(__GNUC__) || defined(__clang__)
#define TENSORBUF_API __attribute__((visibility("default")))
#else
#define TENSORBUF_API
#endif

#endif /* TENSORBUF_EXPORT_H_ */
