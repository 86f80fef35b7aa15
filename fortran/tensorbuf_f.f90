! tensorbuf_f: the tensorbuf C API (<tensorbuf/c_api.h>, spec/interop.md I4) for Fortran.
!
! It re-exports tensorbuf_c (the bind(c) interface c_tb_<name> of each C function tb_<name>,
! the constants and option structs) and adds tb_<op>: wrappers over contiguous arrays of
! real(c_float), real(c_double), integer(c_int32_t), integer(c_int64_t) (and int16, int8,
! logical(c_bool)) of rank 0 to 3, used in place (no copy),
! with an optional ierr: present, it receives the status (TB_OK = 0); absent, a failure stops
! the program (error stop) with the message.
!
! Shapes: a Fortran array a(m, n) is the row-major tensor [n, m] (the same memory, dims in
! reverse order), and indices are 0-based tensor coordinates in that order: element a(i, j) is
! tensor element [j - 1, i - 1]. An indices array idx(k, n) is n index tuples of k coordinates.
! docs/c_api.md has an example.
module tensorbuf_f
  use, intrinsic :: iso_c_binding
  use tensorbuf_c
  implicit none
  private :: wrapper_message, finish_local, describe, borrow, borrow3, destroy3, &
      take_result, run_in_place, run_out_of_place, policy, axis_of

  ! The message of this thread's last failed wrapper call (C's, or the wrapper's own).
  character(len=:), allocatable :: wrapper_message

contains

  ! The message of this thread's last failed wrapper call; after a failing c_tb_* call,
  ! c_string(c_tb_last_error()) is C's message.
  function tb_last_error_message() result(message)
    character(len=:), allocatable :: message
    if (allocated(wrapper_message)) then
      message = wrapper_message
    else
      message = ''
    end if
  end function

  ! The address, dtype and byte size of a contiguous array of a supported type and rank 0-3;
  ! dtype -1 for anything else.
  subroutine describe(x, address, dtype, bytes)
    class(*), dimension(..), contiguous, target, intent(in) :: x
    type(c_ptr), intent(out) :: address
    integer(c_int), intent(out) :: dtype
    integer(c_size_t), intent(out) :: bytes
    integer :: element_size
    address = c_null_ptr
    dtype = -1
    element_size = 0
    select rank (x)
    rank (0)
      select type (x)
      type is (real(c_float))
        address = c_loc(x); dtype = TB_FLOAT32; element_size = 4
      type is (real(c_double))
        address = c_loc(x); dtype = TB_FLOAT64; element_size = 8
      type is (integer(c_int32_t))
        address = c_loc(x); dtype = TB_INT32; element_size = 4
      type is (integer(c_int64_t))
        address = c_loc(x); dtype = TB_INT64; element_size = 8
      type is (integer(c_int16_t))
        address = c_loc(x); dtype = TB_INT16; element_size = 2
      type is (integer(c_int8_t))
        address = c_loc(x); dtype = TB_INT8; element_size = 1
      type is (logical(c_bool))
        address = c_loc(x); dtype = TB_BOOL; element_size = 1
      end select
    rank (1)
      select type (x)
      type is (real(c_float))
        address = c_loc(x); dtype = TB_FLOAT32; element_size = 4
      type is (real(c_double))
        address = c_loc(x); dtype = TB_FLOAT64; element_size = 8
      type is (integer(c_int32_t))
        address = c_loc(x); dtype = TB_INT32; element_size = 4
      type is (integer(c_int64_t))
        address = c_loc(x); dtype = TB_INT64; element_size = 8
      type is (integer(c_int16_t))
        address = c_loc(x); dtype = TB_INT16; element_size = 2
      type is (integer(c_int8_t))
        address = c_loc(x); dtype = TB_INT8; element_size = 1
      type is (logical(c_bool))
        address = c_loc(x); dtype = TB_BOOL; element_size = 1
      end select
    rank (2)
      select type (x)
      type is (real(c_float))
        address = c_loc(x); dtype = TB_FLOAT32; element_size = 4
      type is (real(c_double))
        address = c_loc(x); dtype = TB_FLOAT64; element_size = 8
      type is (integer(c_int32_t))
        address = c_loc(x); dtype = TB_INT32; element_size = 4
      type is (integer(c_int64_t))
        address = c_loc(x); dtype = TB_INT64; element_size = 8
      type is (integer(c_int16_t))
        address = c_loc(x); dtype = TB_INT16; element_size = 2
      type is (integer(c_int8_t))
        address = c_loc(x); dtype = TB_INT8; element_size = 1
      type is (logical(c_bool))
        address = c_loc(x); dtype = TB_BOOL; element_size = 1
      end select
    rank (3)
      select type (x)
      type is (real(c_float))
        address = c_loc(x); dtype = TB_FLOAT32; element_size = 4
      type is (real(c_double))
        address = c_loc(x); dtype = TB_FLOAT64; element_size = 8
      type is (integer(c_int32_t))
        address = c_loc(x); dtype = TB_INT32; element_size = 4
      type is (integer(c_int64_t))
        address = c_loc(x); dtype = TB_INT64; element_size = 8
      type is (integer(c_int16_t))
        address = c_loc(x); dtype = TB_INT16; element_size = 2
      type is (integer(c_int8_t))
        address = c_loc(x); dtype = TB_INT8; element_size = 1
      type is (logical(c_bool))
        address = c_loc(x); dtype = TB_BOOL; element_size = 1
      end select
    end select
    bytes = int(element_size, c_size_t) * int(size(x), c_size_t)
  end subroutine

  ! Borrows `x` in place as a buffer of the reversed shape. `as_bool`: a 1-byte array (an
  ! integer(c_int8_t) mask made from a logical one, or logical(c_bool)) is read as bool.
  function borrow(x, read_only, as_bool, handle) result(status)
    class(*), dimension(..), contiguous, target, intent(in) :: x
    logical, intent(in) :: read_only, as_bool
    type(c_ptr), intent(out) :: handle
    integer(c_int) :: status
    type(c_ptr) :: address
    integer(c_int) :: dtype
    integer(c_size_t) :: bytes
    integer(c_int64_t) :: dims(TB_MAX_NDIM)
    integer :: i, n
    handle = c_null_ptr
    call describe(x, address, dtype, bytes)
    if (dtype < 0) then
      wrapper_message = 'tensorbuf_f: unsupported array type or rank (rank 0-3 of real32, ' // &
          'real64, int8/16/32/64 or logical(c_bool))'
      status = TB_INVALID_ARGUMENT
      return
    end if
    if (as_bool .and. (dtype == TB_INT8 .or. dtype == TB_BOOL)) dtype = TB_BOOL
    n = rank(x)
    do i = 1, n
      dims(i) = size(x, n + 1 - i, kind=c_int64_t)
    end do
    status = c_tb_buffer_borrow(address, dtype, int(n, c_int), dims, tb_device(0, 0), &
        merge(1_c_int, 0_c_int, read_only), c_null_ptr, handle)
  end function

  ! `handle` = a buffer over `x` in place (read_only: writes fail); free it with
  ! c_tb_buffer_destroy. For the raw c_tb_* calls.
  subroutine tb_borrow(x, handle, read_only, ierr)
    class(*), dimension(..), contiguous, target, intent(in) :: x
    type(c_ptr), intent(out) :: handle
    logical, intent(in), optional :: read_only
    integer, intent(out), optional :: ierr
    logical :: ro
    integer(c_int) :: status
    ro = .false.
    if (present(read_only)) ro = read_only
    status = borrow(x, ro, .false., handle)
    call finish_local(status, ierr)
  end subroutine

  ! As finish, for failures whose message the wrapper set itself or C set.
  subroutine finish_local(status, ierr)
    integer(c_int), intent(in) :: status
    integer, intent(out), optional :: ierr
    if (status /= TB_OK .and. .not. allocated(wrapper_message)) then
      wrapper_message = c_string(c_tb_last_error())
    end if
    if (present(ierr)) then
      ierr = status
    else if (status /= TB_OK) then
      error stop wrapper_message
    end if
  end subroutine

  ! Borrows the three arguments of an op (the first writable when `in_place`).
  function borrow3(a, b, c, in_place, b_as_bool, ha, hb, hc) result(status)
    class(*), dimension(..), contiguous, target, intent(in) :: a, b, c
    logical, intent(in) :: in_place, b_as_bool
    type(c_ptr), intent(out) :: ha, hb, hc
    integer(c_int) :: status
    hb = c_null_ptr
    hc = c_null_ptr
    status = borrow(a, .not. in_place, .false., ha)
    if (status == TB_OK) status = borrow(b, .true., b_as_bool, hb)
    if (status == TB_OK) status = borrow(c, .true., .false., hc)
  end function

  subroutine destroy3(ha, hb, hc)
    type(c_ptr), intent(in) :: ha, hb, hc
    call c_tb_buffer_destroy(ha)
    call c_tb_buffer_destroy(hb)
    call c_tb_buffer_destroy(hc)
  end subroutine

  ! Copies a result buffer into `out` (same element count and type) and frees it.
  function take_result(result, out) result(status)
    type(c_ptr), intent(in) :: result
    class(*), dimension(..), contiguous, target, intent(inout) :: out
    integer(c_int) :: status
    type(c_ptr) :: address
    integer(c_int) :: dtype
    integer(c_size_t) :: bytes
    call describe(out, address, dtype, bytes)
    status = c_tb_buffer_copy_to_host(result, address, bytes)
    call c_tb_buffer_destroy(result)
  end function

  ! The in-place op `op` (a scatter: `option` is the policy; boolean_mask_update: the axis) on
  ! arrays borrowed in place; `second_as_bool` reads the second argument as a bool mask.
  subroutine run_in_place(op, a, second, updates, option, second_as_bool, ierr)
    procedure(tb_op_in_place_c) :: op
    class(*), dimension(..), contiguous, target, intent(inout) :: a
    class(*), dimension(..), contiguous, target, intent(in) :: second, updates
    integer(c_int), intent(in) :: option
    logical, intent(in) :: second_as_bool
    integer, intent(out), optional :: ierr
    type(c_ptr) :: ha, hs, hu
    integer(c_int) :: status
    if (allocated(wrapper_message)) deallocate(wrapper_message)
    status = borrow3(a, second, updates, .true., second_as_bool, ha, hs, hu)
    if (status == TB_OK) status = op(ha, hs, hu, option, c_null_ptr)
    call destroy3(ha, hs, hu)
    call finish_local(status, ierr)
  end subroutine

  ! The out-of-place op `op`, its result copied into `out` (a's shape and type).
  subroutine run_out_of_place(op, a, second, updates, out, option, second_as_bool, ierr)
    procedure(tb_op_c) :: op
    class(*), dimension(..), contiguous, target, intent(in) :: a, second, updates
    class(*), dimension(..), contiguous, target, intent(inout) :: out
    integer(c_int), intent(in) :: option
    logical, intent(in) :: second_as_bool
    integer, intent(out), optional :: ierr
    type(c_ptr) :: ha, hs, hu, result
    integer(c_int) :: status
    if (allocated(wrapper_message)) deallocate(wrapper_message)
    status = borrow3(a, second, updates, .false., second_as_bool, ha, hs, hu)
    if (status == TB_OK) status = op(ha, hs, hu, option, c_null_ptr, result)
    if (status == TB_OK) status = take_result(result, out)
    call destroy3(ha, hs, hu)
    call finish_local(status, ierr)
  end subroutine

  integer(c_int) function policy(oob)
    integer(c_int), intent(in), optional :: oob
    policy = TB_OOB_DEFAULT
    if (present(oob)) policy = oob
  end function

  integer(c_int) function axis_of(axis)
    integer, intent(in), optional :: axis
    axis_of = 0
    if (present(axis)) axis_of = int(axis, c_int)
  end function

  ! The scatters (spec/tensor_scatter_nd.md): a(indices) <op> updates, in place, or into `out`.
  ! `oob`: TB_OOB_* (default: the device's). On failure `a` (`out`) is unchanged.
  subroutine tb_tensor_scatter_nd_sub_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(inout) :: a
    class(*), dimension(..), contiguous, target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place(c_tb_tensor_scatter_nd_sub_in_place, &
        a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_sub(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(in) :: a, indices, updates
    class(*), dimension(..), contiguous, target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place(c_tb_tensor_scatter_nd_sub, &
        a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  subroutine tb_tensor_scatter_nd_add_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(inout) :: a
    class(*), dimension(..), contiguous, target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place(c_tb_tensor_scatter_nd_add_in_place, &
        a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_add(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(in) :: a, indices, updates
    class(*), dimension(..), contiguous, target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place(c_tb_tensor_scatter_nd_add, &
        a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  subroutine tb_tensor_scatter_nd_update_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(inout) :: a
    class(*), dimension(..), contiguous, target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place(c_tb_tensor_scatter_nd_update_in_place, &
        a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_update(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(in) :: a, indices, updates
    class(*), dimension(..), contiguous, target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place(c_tb_tensor_scatter_nd_update, &
        a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  subroutine tb_tensor_scatter_nd_min_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(inout) :: a
    class(*), dimension(..), contiguous, target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place(c_tb_tensor_scatter_nd_min_in_place, &
        a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_min(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(in) :: a, indices, updates
    class(*), dimension(..), contiguous, target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place(c_tb_tensor_scatter_nd_min, &
        a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  subroutine tb_tensor_scatter_nd_max_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(inout) :: a
    class(*), dimension(..), contiguous, target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place(c_tb_tensor_scatter_nd_max_in_place, &
        a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_max(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), contiguous, target, intent(in) :: a, indices, updates
    class(*), dimension(..), contiguous, target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place(c_tb_tensor_scatter_nd_max, &
        a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  ! a[mask] = updates (spec/boolean_mask_update.md), in place or into `out`; `axis` (default 0)
  ! in tensor coordinates, i.e. counted from the last Fortran dimension. `mask`:
  ! logical(c_bool) or integer(c_int8_t) 0/1 (e.g. merge(1_c_int8_t, 0_c_int8_t, a > 0)), read
  ! as bool.
  subroutine tb_boolean_mask_update_in_place(a, mask, updates, ierr, axis)
    class(*), dimension(..), contiguous, target, intent(inout) :: a
    class(*), dimension(..), contiguous, target, intent(in) :: mask, updates
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: axis
    call run_in_place(c_tb_boolean_mask_update_in_place, a, mask, updates, axis_of(axis), &
        .true., ierr)
  end subroutine
  subroutine tb_boolean_mask_update(a, mask, updates, out, ierr, axis)
    class(*), dimension(..), contiguous, target, intent(in) :: a, mask, updates
    class(*), dimension(..), contiguous, target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: axis
    call run_out_of_place(c_tb_boolean_mask_update, a, mask, updates, out, axis_of(axis), &
        .true., ierr)
  end subroutine

end module tensorbuf_f
