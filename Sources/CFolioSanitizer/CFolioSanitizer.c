#include "CFolioSanitizer.h"

// Weak: a program built without ThreadSanitizer links (and calls) nothing.
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

void folio_tsan_acquire(const void *address) {
    if (__tsan_acquire) __tsan_acquire((void *)address);
}

void folio_tsan_release(const void *address) {
    if (__tsan_release) __tsan_release((void *)address);
}
