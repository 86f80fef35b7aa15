/* Compiled by ctest (test c_api.header_c99) with exactly
 * gcc -std=c99 -Wall -Wextra -pedantic -Werror: <tensorbuf/c_api.h> is C99, alone and beside a
 * DLPack header's own declaration of the struct it names. */
#include <tensorbuf/c_api.h>
#include <tensorbuf/c_api.h> /* the include guard */

struct DLManagedTensorVersioned;

int main(void) {
  tb_scatter_options options = {sizeof(tb_scatter_options), TB_OOB_DEFAULT, 0, NULL};
  tb_device cpu = {0, 0};
  (void)cpu;
  return options.oob == TB_OOB_DEFAULT ? 0 : 1;
}
