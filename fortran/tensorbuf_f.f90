! tensorbuf_f: the tensorbuf C API (<tensorbuf/c_api.h>, spec/interop.md I4) for Fortran.
!
! It re-exports tensorbuf_c (the bind(c) interface c_tb_<name> of each C function tb_<name>,
! the constants and option structs) and adds tb_<op>: wrappers over arrays of real(c_float),
! real(c_double), integer(c_int32_t), integer(c_int64_t) (and int16, int8, logical(c_bool),
! default logical) of rank 0 to 3, with an optional ierr: present, it receives the status
! (TB_OK = 0); absent, a failure stops the program (error stop) with the message.
!
! A contiguous array is used in place (no copy). Any other array a Fortran user can write (a
! strided, row or reversed section) goes through a contiguous copy: read from its elements,
! and, for the array an op writes (a in place, out), written back to exactly those elements,
! only when the op succeeded. Default logical arrays are copied as 1-byte bools.
!
! Shapes: a Fortran array a(m, n) is the row-major tensor [n, m] (the same memory, dims in
! reverse order), and indices are 0-based tensor coordinates in that order: element a(i, j) is
! tensor element [j - 1, i - 1]. An indices array idx(k, n) is n index tuples of k coordinates.
! docs/c_api.md has an example.
module tensorbuf_f
  use, intrinsic :: iso_c_binding
  use tensorbuf_c
  implicit none
  private :: array_arg, describe, contiguous_layout, write_back, borrow, borrow3, destroy3, &
      check_arg, check_out, finish, set_message, fortran_message, add_int, add_shape, &
      add_dtype, int_list, dtype_bytes, run_in_place, run_out_of_place, policy, axis_of

  ! One array argument as the C API sees it: its address (the array's own memory, or staged:
  ! a contiguous copy of its elements in array element order), dtype (-1: not supported) and
  ! Fortran shape.
  type :: array_arg
    type(c_ptr) :: address = c_null_ptr
    integer(c_int) :: dtype = -1
    integer :: rank = 0
    integer(c_int64_t) :: dims(3) = 0
    logical :: copied = .false.
    integer(c_int8_t), allocatable :: staged(:)
  end type

contains

  ! `message` = the message of this thread's last failed wrapper call (C's, with positions in
  ! Fortran terms, or the wrapper's own); not cleared by a successful call. Safe from several
  ! threads at once. After a failing raw c_tb_* call, c_string(c_tb_last_error()) is C's.
  subroutine tb_get_last_error_message(message)
    character(len=:), allocatable, intent(out) :: message
    type(c_ptr) :: text
    integer(c_size_t) :: length
    character(kind=c_char), pointer :: chars(:)
    integer :: i
    interface    ! last_message.c, the per-thread store; arguments by reference
      subroutine f_get_message(text, length) bind(c, name="tensorbuf_f_get_message")
        import :: c_ptr, c_size_t
        type(c_ptr), intent(out) :: text
        integer(c_size_t), intent(out) :: length
      end subroutine
    end interface
    call f_get_message(text, length)
    allocate(character(len=length) :: message)
    if (length == 0) return
    call c_f_pointer(text, chars, [length])
    do i = 1, int(length)
      message(i:i) = chars(i)
    end do
  end subroutine

  ! The same message as a function, for single-threaded code. From threads, call
  ! tb_get_last_error_message: gfortran 12 keeps the length of a deferred-length function result
  ! in a static variable at each call site, which threads at the same site overwrite. (A result
  ! length from a specification function of no argument is worse: callers compiled elsewhere
  ! treat it as deferred, a calling convention the function does not follow.)
  function tb_last_error_message() result(message)
    character(len=:), allocatable :: message
    call tb_get_last_error_message(message)
  end function

  subroutine set_message(message)
    character(len=*), intent(in) :: message
    interface
      subroutine f_set_message(text, length) bind(c, name="tensorbuf_f_set_message")
        import :: c_char, c_size_t
        character(kind=c_char), intent(in) :: text(*)
        integer(c_size_t), intent(in) :: length
      end subroutine
    end interface
    call f_set_message(message, int(len(message), c_size_t))
  end subroutine

  ! Whether x's elements are adjacent in array element order. is_contiguous on the class(*)
  ! assumed-rank dummy itself answers .true. for strided sections in gfortran 12; on this
  ! type(*) one (and on a typed one) it is right.
  logical function contiguous_layout(x)
    type(*), dimension(..), intent(in) :: x
    contiguous_layout = .true.
    if (rank(x) > 0) contiguous_layout = is_contiguous(x)
  end function

  ! x as the C API will see it (array_arg); staged when x is not contiguous or is a default
  ! logical.
  subroutine describe(x, arg)
    class(*), dimension(..), target, intent(in) :: x
    type(array_arg), target, intent(inout) :: arg
    logical :: contiguous_x
    integer :: i
    contiguous_x = contiguous_layout(x)
    arg%rank = rank(x)
    do i = 1, min(rank(x), 3)
      arg%dims(i) = size(x, i, kind=c_int64_t)
    end do
    select rank (x)
    rank (0)
      include 'describe_types.inc'
    rank (1)
      include 'describe_types.inc'
    rank (2)
      include 'describe_types.inc'
    rank (3)
      include 'describe_types.inc'
    end select
    arg%copied = allocated(arg%staged)
    if (arg%copied) arg%address = c_loc(arg%staged)
  end subroutine

  ! After a successful op: the staged copy of x (the array the op wrote) back into x.
  subroutine write_back(x, arg)
    class(*), dimension(..), target, intent(inout) :: x
    type(array_arg), intent(in) :: arg
    if (.not. arg%copied) return
    select rank (x)
    rank (0)
      select type (x)    ! only a default logical scalar is staged at rank 0
      type is (logical)
        x = arg%staged(1) /= 0
      end select
    rank (1)
      include 'write_back_types.inc'
    rank (2)
      include 'write_back_types.inc'
    rank (3)
      include 'write_back_types.inc'
    end select
  end subroutine

  integer function dtype_bytes(dtype)
    integer(c_int), intent(in) :: dtype
    select case (dtype)
    case (TB_INT64, TB_FLOAT64)
      dtype_bytes = 8
    case (TB_INT32, TB_FLOAT32)
      dtype_bytes = 4
    case (TB_INT16)
      dtype_bytes = 2
    case default
      dtype_bytes = 1
    end select
  end function

  ! The helpers that build messages append to `text` (subroutines, not functions with a
  ! deferred-length result: see tb_last_error_message).
  subroutine add_dtype(text, dtype)
    character(len=:), allocatable, intent(inout) :: text
    integer(c_int), intent(in) :: dtype
    select case (dtype)
    case (TB_BOOL)
      text = text // 'bool'
    case (TB_INT8)
      text = text // 'int8'
    case (TB_INT16)
      text = text // 'int16'
    case (TB_INT32)
      text = text // 'int32'
    case (TB_INT64)
      text = text // 'int64'
    case (TB_FLOAT32)
      text = text // 'float32'
    case (TB_FLOAT64)
      text = text // 'float64'
    case default
      text = text // 'unsupported'
    end select
  end subroutine

  subroutine add_int(text, i)
    character(len=:), allocatable, intent(inout) :: text
    integer(c_int64_t), intent(in) :: i
    character(len=24) :: digits
    integer(c_int64_t) :: rest
    integer :: at
    at = len(digits) + 1
    rest = abs(i)
    do
      at = at - 1
      digits(at:at) = achar(iachar('0') + int(mod(rest, 10_c_int64_t)))
      rest = rest / 10
      if (rest == 0) exit
    end do
    if (i < 0) then
      at = at - 1
      digits(at:at) = '-'
    end if
    text = text // digits(at:)
  end subroutine

  ! A Fortran shape, "(4, 2)".
  subroutine add_shape(text, arg)
    character(len=:), allocatable, intent(inout) :: text
    type(array_arg), intent(in) :: arg
    integer :: i
    text = text // '('
    do i = 1, arg%rank
      if (i > 1) text = text // ', '
      call add_int(text, arg%dims(i))
    end do
    text = text // ')'
  end subroutine

  ! A wrapper argument of an unsupported type or rank: TB_INVALID_ARGUMENT and its message.
  integer(c_int) function check_arg(name, what, arg, message) result(status)
    character(len=*), intent(in) :: name, what
    type(array_arg), intent(in) :: arg
    character(len=:), allocatable, intent(inout) :: message
    status = TB_OK
    if (arg%dtype >= 0) return
    status = TB_INVALID_ARGUMENT
    message = name // ': ' // what // ' is not an array of rank 0 to 3 of real(c_float), ' // &
        'real(c_double), integer(c_int8_t / c_int16_t / c_int32_t / c_int64_t), ' // &
        'logical(c_bool) or logical'
  end function

  ! `out` of an out-of-place wrapper: the type and shape of a, or TB_INVALID_ARGUMENT.
  integer(c_int) function check_out(name, a, out, message) result(status)
    character(len=*), intent(in) :: name
    type(array_arg), intent(in) :: a, out
    character(len=:), allocatable, intent(inout) :: message
    character(len=*), parameter :: rule = ' (out must have the type and shape of a)'
    status = TB_OK
    if (out%dtype /= a%dtype) then
      status = TB_INVALID_ARGUMENT
      message = name // ': out is '
      call add_dtype(message, out%dtype)
      message = message // ' but a is '
      call add_dtype(message, a%dtype)
      message = message // rule
    else if (out%rank /= a%rank .or. any(out%dims /= a%dims)) then
      status = TB_INVALID_ARGUMENT
      message = name // ': out has shape '
      call add_shape(message, out)
      message = message // ' but a has shape '
      call add_shape(message, a)
      message = message // rule
    end if
  end function

  ! A buffer over arg's memory, dims reversed. `as_bool`: a 1-byte integer array (a 0/1 mask)
  ! is read as bool.
  integer(c_int) function borrow(arg, read_only, as_bool, handle) result(status)
    type(array_arg), intent(in) :: arg
    logical, intent(in) :: read_only, as_bool
    type(c_ptr), intent(out) :: handle
    integer(c_int64_t) :: dims(TB_MAX_NDIM)
    integer(c_int) :: dtype
    integer :: i
    handle = c_null_ptr
    dtype = arg%dtype
    if (as_bool .and. dtype == TB_INT8) dtype = TB_BOOL
    dims = 0
    do i = 1, arg%rank
      dims(i) = arg%dims(arg%rank + 1 - i)
    end do
    status = c_tb_buffer_borrow(arg%address, dtype, int(arg%rank, c_int), dims, &
        tb_device(0, 0), merge(1_c_int, 0_c_int, read_only), c_null_ptr, handle)
  end function

  ! `handle` = a buffer over `x` in place (read_only: writes fail); free it with
  ! c_tb_buffer_destroy. For the raw c_tb_* calls. The buffer is x's own memory, so x must be
  ! contiguous and not a default logical.
  subroutine tb_borrow(x, handle, read_only, ierr)
    class(*), dimension(..), target, intent(in) :: x
    type(c_ptr), intent(out) :: handle
    logical, intent(in), optional :: read_only
    integer, intent(out), optional :: ierr
    type(array_arg), target :: arg
    character(len=:), allocatable :: message
    integer(c_int) :: status
    logical :: ro
    handle = c_null_ptr
    ro = .false.
    if (present(read_only)) ro = read_only
    call describe(x, arg)
    status = check_arg('tb_borrow', 'x', arg, message)
    if (status == TB_OK .and. arg%copied) then
      status = TB_INVALID_ARGUMENT
      message = 'tb_borrow: x is not contiguous (a strided or reversed section), or is a ' // &
          'default logical: a buffer is the array''s own memory; pass a contiguous array ' // &
          'of a C type (a copy of the section, logical(c_bool))'
    end if
    if (status == TB_OK) status = borrow(arg, ro, .false., handle)
    call finish(status, message, ierr)
  end subroutine

  ! The end of every wrapper: a failure's message (the wrapper's own, or C's in Fortran terms)
  ! becomes this thread's last message; then ierr, or error stop.
  subroutine finish(status, message, ierr)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable, intent(inout) :: message
    integer, intent(out), optional :: ierr
    if (status /= TB_OK) then
      if (.not. allocated(message)) call fortran_message(c_string(c_tb_last_error()), message)
      call set_message(message)
    end if
    if (present(ierr)) then
      ierr = status
    else if (status /= TB_OK) then
      error stop message
    end if
  end subroutine

  ! The integers of a C list "1, 2" or "1,2" (empty: none).
  function int_list(text) result(values)
    character(len=*), intent(in) :: text
    integer(c_int64_t), allocatable :: values(:)
    integer(c_int64_t) :: value, sign
    integer :: i, n
    logical :: in_number
    allocate(values(count([(text(i:i) == ',', i = 1, len(text))]) + 1))
    n = 0
    value = 0
    sign = 1
    in_number = .false.
    do i = 1, len(text) + 1
      if (i <= len(text)) then
        if (text(i:i) == '-') then
          sign = -1
          cycle
        else if (text(i:i) >= '0' .and. text(i:i) <= '9') then
          value = value * 10 + (iachar(text(i:i)) - iachar('0'))
          in_number = .true.
          cycle
        end if
      end if
      if (in_number) then      ! a separator or the end closes a number
        n = n + 1
        values(n) = sign * value
      end if
      value = 0
      sign = 1
      in_number = .false.
    end do
    values = values(1:n)
  end function

  ! C's message, with a bad index tuple restated the Fortran way (1-based subscripts, dims in
  ! Fortran order, the tensor's text kept beside it); a message naming shapes says they are the
  ! tensor's.
  subroutine fortran_message(text, message)
    character(len=*), intent(in) :: text
    character(len=:), allocatable, intent(out) :: message
    character(len=*), parameter :: marker = '] does not index into shape ['
    integer(c_int64_t), allocatable :: position(:), coords(:), dims(:)
    integer :: at, eq, tuple, close, rank, depth, i
    character(len=:), allocatable :: element, outside
    at = index(text, marker)
    eq = 0
    tuple = 0
    if (at > 0) eq = index(text(1:at), ' = [', back=.true.)
    if (eq > 0) tuple = index(text(1:eq), 'indices', back=.true.)
    close = 0
    if (tuple > 0) close = index(text(at + len(marker):), ']')
    if (close == 0) then
      message = text
      if (index(text, 'shape [') > 0 .or. index(text, 'shape: [') > 0) message = text // &
          ' (shapes in [] are tensor shapes: a Fortran array''s dims in reverse order)'
      return
    end if
    ! indices[p0,p1] = [c0, c1] does not index into shape [d0,d1]. Allocated first: gfortran
    ! 12 with -fsanitize warns that the reallocating assignment reads unset bounds.
    allocate(position(0), coords(0), dims(0))
    position = int_list(text(tuple + 8:eq - 2))
    coords = int_list(text(eq + 4:at - 1))
    dims = int_list(text(at + len(marker):at + len(marker) + close - 2))
    rank = size(dims)
    depth = size(coords)
    message = text(1:tuple - 1) // 'the index tuple indices(:'
    do i = size(position), 1, -1
      message = message // ', '
      call add_int(message, position(i) + 1)
    end do
    element = 'a('
    outside = 'a('
    do i = 1, rank
      if (i > 1) element = element // ', '
      if (i > 1) outside = outside // ', '
      if (i <= rank - depth) then
        element = element // ':'
      else
        call add_int(element, coords(rank + 1 - i) + 1)
      end if
      call add_int(outside, dims(rank + 1 - i))
    end do
    message = message // ') names ' // element // '), outside ' // outside // &
        ') (as a tensor: ' // text(tuple:) // ')'
  end subroutine

  ! Describes and checks the three arguments of an op and borrows them (the first writable
  ! when `in_place`; `second_as_bool`: the second is a mask).
  integer(c_int) function borrow3(name, second_name, a, s, u, in_place, second_as_bool, &
      ha, hs, hu, message) result(status)
    character(len=*), intent(in) :: name, second_name
    type(array_arg), intent(in) :: a, s, u
    logical, intent(in) :: in_place, second_as_bool
    type(c_ptr), intent(out) :: ha, hs, hu
    character(len=:), allocatable, intent(inout) :: message
    ha = c_null_ptr
    hs = c_null_ptr
    hu = c_null_ptr
    status = check_arg(name, 'a', a, message)
    if (status == TB_OK) status = check_arg(name, second_name, s, message)
    if (status == TB_OK) status = check_arg(name, 'updates', u, message)
    if (status == TB_OK) status = borrow(a, .not. in_place, .false., ha)
    if (status == TB_OK) status = borrow(s, .true., second_as_bool, hs)
    if (status == TB_OK) status = borrow(u, .true., .false., hu)
  end function

  subroutine destroy3(ha, hb, hc)
    type(c_ptr), intent(in) :: ha, hb, hc
    call c_tb_buffer_destroy(ha)
    call c_tb_buffer_destroy(hb)
    call c_tb_buffer_destroy(hc)
  end subroutine

  ! The in-place op `op` (a scatter: `option` is the policy; boolean_mask_update: the axis).
  subroutine run_in_place(name, second_name, op, a, second, updates, option, second_as_bool, &
      ierr)
    character(len=*), intent(in) :: name, second_name
    procedure(tb_op_in_place_c) :: op
    class(*), dimension(..), target, intent(inout) :: a
    class(*), dimension(..), target, intent(in) :: second, updates
    integer(c_int), intent(in) :: option
    logical, intent(in) :: second_as_bool
    integer, intent(out), optional :: ierr
    type(array_arg), target :: aa, sa, ua
    type(c_ptr) :: ha, hs, hu
    character(len=:), allocatable :: message
    integer(c_int) :: status
    call describe(a, aa)
    call describe(second, sa)
    call describe(updates, ua)
    status = borrow3(name, second_name, aa, sa, ua, .true., second_as_bool, ha, hs, hu, message)
    if (status == TB_OK) status = op(ha, hs, hu, option, c_null_ptr)
    call destroy3(ha, hs, hu)
    if (status == TB_OK) call write_back(a, aa)
    call finish(status, message, ierr)
  end subroutine

  ! The out-of-place op `op`, its result copied into `out` (a's shape and type).
  subroutine run_out_of_place(name, second_name, op, a, second, updates, out, option, &
      second_as_bool, ierr)
    character(len=*), intent(in) :: name, second_name
    procedure(tb_op_c) :: op
    class(*), dimension(..), target, intent(in) :: a, second, updates
    class(*), dimension(..), target, intent(inout) :: out
    integer(c_int), intent(in) :: option
    logical, intent(in) :: second_as_bool
    integer, intent(out), optional :: ierr
    type(array_arg), target :: aa, sa, ua, oa
    type(c_ptr) :: ha, hs, hu, result
    character(len=:), allocatable :: message
    integer(c_int) :: status
    call describe(a, aa)
    call describe(second, sa)
    call describe(updates, ua)
    call describe(out, oa)
    status = borrow3(name, second_name, aa, sa, ua, .false., second_as_bool, ha, hs, hu, message)
    if (status == TB_OK) status = check_arg(name, 'out', oa, message)
    if (status == TB_OK) status = check_out(name, aa, oa, message)
    if (status == TB_OK) status = op(ha, hs, hu, option, c_null_ptr, result)
    if (status == TB_OK) then
      status = c_tb_buffer_copy_to_host(result, oa%address, &
          int(dtype_bytes(oa%dtype), c_size_t) * int(product(oa%dims(1:oa%rank)), c_size_t))
      call c_tb_buffer_destroy(result)
    end if
    call destroy3(ha, hs, hu)
    if (status == TB_OK) call write_back(out, oa)
    call finish(status, message, ierr)
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

  subroutine tb_tensor_scatter_nd_sub_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), target, intent(inout) :: a
    class(*), dimension(..), target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place('tb_tensor_scatter_nd_sub_in_place', 'indices', &
        c_tb_tensor_scatter_nd_sub_in_place, a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_sub(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), target, intent(in) :: a, indices, updates
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place('tb_tensor_scatter_nd_sub', 'indices', &
        c_tb_tensor_scatter_nd_sub, a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  subroutine tb_tensor_scatter_nd_add_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), target, intent(inout) :: a
    class(*), dimension(..), target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place('tb_tensor_scatter_nd_add_in_place', 'indices', &
        c_tb_tensor_scatter_nd_add_in_place, a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_add(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), target, intent(in) :: a, indices, updates
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place('tb_tensor_scatter_nd_add', 'indices', &
        c_tb_tensor_scatter_nd_add, a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  subroutine tb_tensor_scatter_nd_update_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), target, intent(inout) :: a
    class(*), dimension(..), target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place('tb_tensor_scatter_nd_update_in_place', 'indices', &
        c_tb_tensor_scatter_nd_update_in_place, a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_update(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), target, intent(in) :: a, indices, updates
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place('tb_tensor_scatter_nd_update', 'indices', &
        c_tb_tensor_scatter_nd_update, a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  subroutine tb_tensor_scatter_nd_min_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), target, intent(inout) :: a
    class(*), dimension(..), target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place('tb_tensor_scatter_nd_min_in_place', 'indices', &
        c_tb_tensor_scatter_nd_min_in_place, a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_min(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), target, intent(in) :: a, indices, updates
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place('tb_tensor_scatter_nd_min', 'indices', &
        c_tb_tensor_scatter_nd_min, a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  subroutine tb_tensor_scatter_nd_max_in_place(a, indices, updates, ierr, oob)
    class(*), dimension(..), target, intent(inout) :: a
    class(*), dimension(..), target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_in_place('tb_tensor_scatter_nd_max_in_place', 'indices', &
        c_tb_tensor_scatter_nd_max_in_place, a, indices, updates, policy(oob), .false., ierr)
  end subroutine
  subroutine tb_tensor_scatter_nd_max(a, indices, updates, out, ierr, oob)
    class(*), dimension(..), target, intent(in) :: a, indices, updates
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: oob
    call run_out_of_place('tb_tensor_scatter_nd_max', 'indices', &
        c_tb_tensor_scatter_nd_max, a, indices, updates, out, policy(oob), .false., ierr)
  end subroutine

  ! a[mask] = updates (spec/boolean_mask_update.md), in place or into `out`; `axis` (default 0)
  ! in tensor coordinates, i.e. counted from the last Fortran dimension. `mask`: a logical (of
  ! any kind: `a > 0` will do) or integer(c_int8_t) 0/1 array, read as bool.
  subroutine tb_boolean_mask_update_in_place(a, mask, updates, ierr, axis)
    class(*), dimension(..), target, intent(inout) :: a
    class(*), dimension(..), target, intent(in) :: mask, updates
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: axis
    call run_in_place('tb_boolean_mask_update_in_place', 'mask', &
        c_tb_boolean_mask_update_in_place, a, mask, updates, axis_of(axis), &
        .true., ierr)
  end subroutine
  subroutine tb_boolean_mask_update(a, mask, updates, out, ierr, axis)
    class(*), dimension(..), target, intent(in) :: a, mask, updates
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: axis
    call run_out_of_place('tb_boolean_mask_update', 'mask', &
        c_tb_boolean_mask_update, a, mask, updates, out, axis_of(axis), &
        .true., ierr)
  end subroutine

end module tensorbuf_f
