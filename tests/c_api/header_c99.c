/* Compiled by ctest (test c_api.header_c99) with exactly
 * gcc -std=c99 -Wall -Wextra -pedantic -Werror: <tensorbuf/c_api.h> is C99, alone and beside a
 * DLPack header's own declaration of the struct it names. */
#include <tensorbuf/c_api.h>
#include <tensorbuf/c_api.h> /* the include guard */

struct DLManagedTensorVersioned;

int main(void) {
  /* As docs/c_api.md recommends: designated initialisers, every other field zero (its
   * default), so the code compiles unchanged when a later header appends fields. */
  tb_device cpu = {0, 0};
  tb_scatter_options options = {
      .struct_size = sizeof(tb_scatter_options), .oob = TB_OOB_DEFAULT, .device = &cpu};
  tb_substr_options substr = {0};
  substr.struct_size = sizeof substr;
  return options.oob == TB_OOB_DEFAULT && substr.device == NULL ? 0 : 1;
}
