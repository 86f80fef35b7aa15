! tensorbuf_c: the bind(c) interfaces of the tensorbuf C API (<tensorbuf/c_api.h>,
! spec/interop.md I4): c_tb_<name> is the C function tb_<name>, with its constants and option
! structs. Use the module tensorbuf_f, which re-exports all of this with the array wrappers.
! The constants, structs and interfaces are written from the header itself by CMake
! (c_functions.cmake); ctest fortran.constants checks the constants and the structs' layouts
! against C.
module tensorbuf_c
  use, intrinsic :: iso_c_binding
  implicit none
  private

  ! The constants (each #define TB_<X> <n> and each enum of the header) and the structs as
  ! bind(c) types, written from the header (c_functions.cmake). An option struct's `device` is
  ! c_loc of a type(tb_device), target (c_null_ptr: where the first input lives);
  ! tb_borrow_desc%release a bind(c) subroutine release(ctx, last_use_stream) with two
  ! type(c_ptr), value arguments (c_funloc of it), or c_null_funptr; tb_process_step%means /
  ! stddevs c_loc of `channels` real(c_float) values (copied at create). A processor handle is
  ! a type(c_ptr), as a buffer's.
  include 'tensorbuf_c_types.inc'

  interface
    pure function c_strlen(s) bind(c, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value, intent(in) :: s
      integer(c_size_t) :: c_strlen
    end function
  end interface
  ! The shapes of the plain op functions, one per form, shared by the ops of three buffers, an
  ! int and a stream (the second buffer indices or a mask, the int a tb_oob or an axis). The
  ! wrappers call the _ex forms now; these stay for callers that name them.
  abstract interface
    function tb_op_in_place_c(tensor, second, updates, policy_or_axis, stream) result(status) &
        bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, second, updates
      integer(c_int), value :: policy_or_axis
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function
    function tb_op_c(tensor, second, updates, policy_or_axis, stream, out) result(status) &
        bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, second, updates
      integer(c_int), value :: policy_or_axis
      type(c_ptr), value :: stream
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
  end interface
  public :: tb_op_in_place_c, tb_op_c

  ! The C functions, one plain interface block each, and their public statement (written from
  ! c_api.h; fortran/c_functions.cmake says how each C type is passed). Not
  ! procedure(<abstract interface>), bind(c) :: name: gfortran 12.2 passes the `value`
  ! arguments of such a declaration by address from every call site but the first (ctest
  ! fortran.raw_calls calls them from several sites).
  include 'tensorbuf_c_functions.inc'

  public :: c_string

contains

  ! A NUL-terminated C string as a Fortran string. Its length is a specification expression,
  ! not deferred: gfortran 12 keeps a deferred result length in a static variable at each call
  ! site, which threads calling at once overwrite.
  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=c_strlen(p)) :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i
    call c_f_pointer(p, chars, [len(s)])
    do i = 1, len(s)
      s(i:i) = chars(i)
    end do
  end function

end module tensorbuf_c
