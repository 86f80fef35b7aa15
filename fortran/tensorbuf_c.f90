! tensorbuf_c: the bind(c) interfaces of the tensorbuf C API (<tensorbuf/c_api.h>,
! spec/interop.md I4): c_tb_<name> is the C function tb_<name>, with its constants and option
! structs. Use the module tensorbuf_f, which re-exports all of this with the array wrappers.
! The constants and the interfaces are written from the header itself by CMake
! (c_functions.cmake); the structs by hand, their sizes and the constants checked against C
! (ctest fortran.constants).
module tensorbuf_c
  use, intrinsic :: iso_c_binding
  implicit none
  private

  ! The constants: each #define TB_<X> <n> and each enum of the header (c_functions.cmake).
  include 'tensorbuf_c_constants.inc'

  type, bind(c), public :: tb_device
    integer(c_int) :: kind = 0, index = 0
  end type
  ! Option structs: `device` is c_loc of a type(tb_device), target (c_null_ptr: where the
  ! first input lives).
  type, bind(c), public :: tb_scatter_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: oob = 0
    integer(c_int) :: deterministic = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_mask_update_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: axis = 0
    integer(c_int) :: broadcast = 1
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  ! release: a bind(c) subroutine release(ctx, last_use_stream) with two type(c_ptr), value
  ! arguments (c_funloc of it), or c_null_funptr.
  type, bind(c), public :: tb_borrow_desc
    integer(c_size_t) :: struct_size = 0
    type(c_ptr) :: data = c_null_ptr
    integer(c_int) :: dtype = 0
    integer(c_int) :: ndim = 0
    type(c_ptr) :: shape = c_null_ptr
    type(tb_device) :: device
    integer(c_int) :: read_only = 0
    type(c_ptr) :: ready_stream = c_null_ptr
    type(c_funptr) :: release = c_null_funptr
    type(c_ptr) :: release_ctx = c_null_ptr
    integer(c_int) :: cache_mirror = 0
  end type
  type, bind(c), public :: tb_substr_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: unit = 0
    integer(c_int) :: oob = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  ! gather_nd's (the gather family's: axis is for gather and gather_elements).
  type, bind(c), public :: tb_gather_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: oob = 0
    integer(c_int) :: axis = 0
    integer(c_int) :: batch_dims = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_scatter_elements_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: oob = 0
    integer(c_int) :: axis = 0
    integer(c_int) :: reduction = 0
    integer(c_int) :: deterministic = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  ! The boolean_mask family's (docs/boolean_mask.md) and the processing ops'
  ! (docs/processing.md) option structs.
  type, bind(c), public :: tb_boolean_mask_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: axis = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_compress_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: has_axis = 0
    integer(c_int) :: axis = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_process_options
    integer(c_size_t) :: struct_size = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_quantize_linear_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: axis = 1
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  ! The Processor (docs/processing.md "From Fortran"): its step struct (its step kinds are
  ! constants); a processor handle is a type(c_ptr), as a buffer's.
  ! One step: means / stddevs are c_loc of `channels` real(c_float) values (copied at create).
  type, bind(c), public :: tb_process_step
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: kind = 0
    real(c_float) :: mean = 0, stddev = 0, zero_point = 0, scale = 0
    type(c_ptr) :: means = c_null_ptr, stddevs = c_null_ptr
    integer(c_int64_t) :: channels = 0
    integer(c_int) :: dtype = 0
  end type

  interface
    pure function c_strlen(s) bind(c, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value, intent(in) :: s
      integer(c_size_t) :: c_strlen
    end function
  end interface
  ! The shapes of the plain op functions: one per form, shared by the scatters and by
  ! boolean_mask_update (whose second argument is the mask, the third int the axis). The
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
