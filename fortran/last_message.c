/* The per-thread message of tensorbuf_f's last failed wrapper call: Fortran
 * has no thread-local variables, and a module variable shared by all threads corrupted the heap
 * when threads failed at once. Recording a message never allocates; a longer one is cut. */
#include <stddef.h>
#include <string.h>

enum { kCapacity = 4096 };
static _Thread_local char message[kCapacity];
static _Thread_local size_t message_length;

/* By reference only: no `value` arguments from Fortran (see tensorbuf_c.f90). */
void tensorbuf_f_set_message(const char* text, const size_t* length) {
  size_t n = *length < kCapacity ? *length : kCapacity;
  memcpy(message, text, n);
  message_length = n;
}

void tensorbuf_f_get_message(const char** text, size_t* length) {
  *text = message;
  *length = message_length;
}
