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
! (tb_gather, tb_gather_elements and tb_scatter_elements index along one Fortran dimension
! instead: 1-based subscripts along `dim`.)
! docs/c_api.md has an example.
module tensorbuf_f
  use, intrinsic :: iso_c_binding
  use tensorbuf_c
  implicit none
  private :: array_arg, describe, contiguous_layout, write_back, borrow, destroy3, &
      check_arg, check_out, finish, set_message, fortran_message, add_int, add_shape, &
      add_dtype, int_list, dtype_bytes, op_call, op_begin, op_end, copy_result, &
      scatter_options, mask_options, device_address, flag, string_offsets, substr_result, &
      check_gathered, gather_begin, gather_end, elements_options, one_based, tensor_axis, &
      elements_message
  ! The boolean_mask family's and the processing ops' helpers.
  private :: mask_begin, mask_axis, condition_message, check_result, &
      holder_dtype, add_fortran_type, axis_message, check_taken, linear_begin, process_options, &
      process_begin, process_args, process_end

  ! The dtypes by their TB_* value, TB_BOOL = 0 to TB_FLOAT64 = 9 (fortran.constants checks
  ! them against C): name, size, and the Fortran type whose arrays hold it (holder_dtype).
  character(len=8), parameter :: dtype_names(0:9) = [character(len=8) :: 'bool', 'uint8', &
      'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']
  integer, parameter :: dtype_sizes(0:9) = [1, 1, 1, 2, 4, 8, 2, 2, 4, 8]
  character(len=28), parameter :: fortran_types(0:9) = [character(len=28) :: &
      'logical(c_bool) or logical', 'integer(c_int8_t), its bytes', 'integer(c_int8_t)', &
      'integer(c_int16_t)', 'integer(c_int32_t)', 'integer(c_int64_t)', &
      'integer(c_int16_t), its bits', 'integer(c_int16_t), its bits', 'real(c_float)', &
      'real(c_double)']
  private :: dtype_names, dtype_sizes, fortran_types, known_dtype

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

  ! One call of an op of arrays (a, a second input, updates when it has them), in place or into
  ! `out`, from op_begin to op_end: the arguments as C sees them, their handles, C's result,
  ! the device the options point to, and the status and message so far. The wrapper makes the
  ! C call in between.
  type :: op_call
    character(len=:), allocatable :: name, a_name
    type(array_arg) :: a, second, updates, out
    logical :: in_place = .true.
    type(c_ptr) :: ha = c_null_ptr, hs = c_null_ptr, hu = c_null_ptr, result = c_null_ptr
    type(tb_device) :: chosen
    integer(c_int64_t), allocatable :: shifted(:)
    integer(c_int) :: status = TB_OK
    logical :: written = .false.    ! out was written although the op failed
    character(len=:), allocatable :: message
  end type

  ! The Processor (docs/processing.md "From Fortran"): its types, then its procedures.
  include 'processor_types.inc'

contains

  include 'processor_f.inc'

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
    dtype_bytes = 1
    if (known_dtype(dtype)) dtype_bytes = dtype_sizes(dtype)
  end function

  logical function known_dtype(dtype)
    integer(c_int), intent(in) :: dtype
    known_dtype = dtype >= lbound(dtype_names, 1) .and. dtype <= ubound(dtype_names, 1)
  end function

  ! The helpers that build messages append to `text` (subroutines, not functions with a
  ! deferred-length result: see tb_last_error_message).
  subroutine add_dtype(text, dtype)
    character(len=:), allocatable, intent(inout) :: text
    integer(c_int), intent(in) :: dtype
    if (known_dtype(dtype)) then
      text = text // trim(dtype_names(dtype))
    else
      text = text // 'unsupported'
    end if
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
  integer(c_int) function borrow(arg, read_only, as_bool, handle, cache_mirror) result(status)
    type(array_arg), intent(in) :: arg
    logical, intent(in) :: read_only, as_bool
    type(c_ptr), intent(out) :: handle
    logical, intent(in), optional :: cache_mirror
    integer(c_int64_t), target :: dims(TB_MAX_NDIM)
    type(tb_borrow_desc) :: desc
    integer :: i
    handle = c_null_ptr
    desc%struct_size = c_sizeof(desc)
    desc%data = arg%address
    desc%dtype = arg%dtype
    if (as_bool .and. arg%dtype == TB_INT8) desc%dtype = TB_BOOL
    desc%ndim = int(arg%rank, c_int)
    dims = 0
    do i = 1, arg%rank
      dims(i) = arg%dims(arg%rank + 1 - i)
    end do
    desc%shape = c_loc(dims)
    desc%read_only = merge(1_c_int, 0_c_int, read_only)
    desc%cache_mirror = flag(cache_mirror, .false.)
    status = c_tb_buffer_borrow_ex(desc, handle)
  end function

  ! `handle` = a buffer over `x` in place (read_only: writes fail; cache_mirror: a device copy
  ! is kept across calls until c_tb_buffer_note_external_write); free it with
  ! c_tb_buffer_destroy. For the raw c_tb_* calls. The buffer is x's own memory, so x must be
  ! contiguous and not a default logical.
  subroutine tb_borrow(x, handle, read_only, ierr, cache_mirror)
    class(*), dimension(..), target, intent(in) :: x
    type(c_ptr), intent(out) :: handle
    logical, intent(in), optional :: read_only
    integer, intent(out), optional :: ierr
    logical, intent(in), optional :: cache_mirror
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
    if (status == TB_OK) status = borrow(arg, ro, .false., handle, cache_mirror)
    call finish('tb_borrow', status, message, ierr)
  end subroutine

  ! The end of every wrapper `name`: a failure's message (the wrapper's own, or C's in Fortran
  ! terms, under the wrapper's name: C's names the C function, e.g. an _ex form) becomes this
  ! thread's last message; then ierr, or error stop.
  ! `array`: the name of the array a bad index tuple indexes (default 'a').
  subroutine finish(name, status, message, ierr, array)
    character(len=*), intent(in) :: name
    integer(c_int), intent(in) :: status
    character(len=:), allocatable, intent(inout) :: message
    integer, intent(out), optional :: ierr
    character(len=*), intent(in), optional :: array
    integer :: colon
    if (status /= TB_OK) then
      if (.not. allocated(message)) then
        if (present(array)) then
          call fortran_message(c_string(c_tb_last_error()), message, array)
        else
          call fortran_message(c_string(c_tb_last_error()), message, 'a')
        end if
        colon = index(message, ': ')
        if (colon > 0) message = name // message(colon:)
      end if
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
  subroutine fortran_message(text, message, array)
    character(len=*), intent(in) :: text
    character(len=:), allocatable, intent(out) :: message
    character(len=*), intent(in) :: array
    character(len=*), parameter :: marker = '] does not index into shape ['
    integer(c_int64_t), allocatable :: position(:), coords(:), dims(:)
    integer :: at, eq, tuple, close, rank, depth, i
    character(len=:), allocatable :: element, outside
    logical :: found
    call elements_message(text, message, array, found)
    if (found) return
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
    element = array // '('
    outside = array // '('
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

  subroutine destroy3(ha, hb, hc)
    type(c_ptr), intent(in) :: ha, hb, hc
    call c_tb_buffer_destroy(ha)
    call c_tb_buffer_destroy(hb)
    call c_tb_buffer_destroy(hc)
  end subroutine

  ! c_loc(chosen) holding `device`, or c_null_ptr (the C default) when it is absent.
  type(c_ptr) function device_address(device, chosen)
    type(tb_device), intent(in), optional :: device
    type(tb_device), target, intent(out) :: chosen
    device_address = c_null_ptr
    if (.not. present(device)) return
    chosen = device
    device_address = c_loc(chosen)
  end function

  ! 1 or 0 for an optional logical, `default` when absent.
  integer(c_int) function flag(value, default)
    logical, intent(in), optional :: value
    logical, intent(in) :: default
    flag = merge(1_c_int, 0_c_int, default)
    if (present(value)) flag = merge(1_c_int, 0_c_int, value)
  end function

  ! The options of `op`'s C call (`device` held in op%chosen).
  type(tb_scatter_options) function scatter_options(op, oob, deterministic, device, stream) &
      result(o)
    type(op_call), target, intent(inout) :: op
    integer(c_int), intent(in), optional :: oob
    logical, intent(in), optional :: deterministic
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    o%struct_size = c_sizeof(o)
    if (present(oob)) o%oob = oob
    o%deterministic = flag(deterministic, .false.)
    if (present(stream)) o%stream = stream
    o%device = device_address(device, op%chosen)
  end function

  type(tb_mask_update_options) function mask_options(op, axis, broadcast, device, stream) &
      result(o)
    type(op_call), target, intent(inout) :: op
    integer, intent(in), optional :: axis
    logical, intent(in), optional :: broadcast
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    o%struct_size = c_sizeof(o)
    if (present(axis)) o%axis = int(axis, c_int)
    o%broadcast = flag(broadcast, .true.)
    if (present(stream)) o%stream = stream
    o%device = device_address(device, op%chosen)
  end function

  ! The start of an op_call `name`: a (named `a_name`, default 'a'), second (`second_name`;
  ! `second_as_bool`: a mask, `one_based_second`: 1-based indices), updates and out described
  ! and checked in that order, out against a's type and shape unless `out_like_a` is .false.,
  ! then the inputs borrowed (a writable when there is no `out`: in place).
  subroutine op_begin(op, name, second_name, a, second, updates, out, second_as_bool, &
      one_based_second, a_name, out_like_a)
    type(op_call), target, intent(inout) :: op
    character(len=*), intent(in) :: name, second_name
    class(*), dimension(..), target, intent(in) :: a, second
    class(*), dimension(..), target, intent(in), optional :: updates, out
    logical, intent(in), optional :: second_as_bool, one_based_second, out_like_a
    character(len=*), intent(in), optional :: a_name
    op%name = name
    op%a_name = 'a'
    if (present(a_name)) op%a_name = a_name
    op%in_place = .not. present(out)
    call describe(a, op%a)
    call describe(second, op%second)
    if (flag(one_based_second, .false.) == 1) call one_based(op%second, op%shifted)
    op%status = check_arg(name, op%a_name, op%a, op%message)
    if (op%status == TB_OK) op%status = check_arg(name, second_name, op%second, op%message)
    if (present(updates)) then
      call describe(updates, op%updates)
      if (op%status == TB_OK) op%status = check_arg(name, 'updates', op%updates, op%message)
    end if
    if (present(out)) then
      call describe(out, op%out)
      if (op%status == TB_OK) op%status = check_arg(name, 'out', op%out, op%message)
      if (op%status == TB_OK .and. flag(out_like_a, .true.) == 1) &
          op%status = check_out(name, op%a, op%out, op%message)
    end if
    if (op%status == TB_OK) op%status = borrow(op%a, .not. op%in_place, .false., op%ha)
    if (op%status == TB_OK) op%status = borrow(op%second, .true., &
        flag(second_as_bool, .false.) == 1, op%hs)
    if (op%status == TB_OK .and. present(updates)) &
        op%status = borrow(op%updates, .true., .false., op%hu)
  end subroutine

  ! The end of an op_call: C's result (out of place) copied into out, the handles freed, the
  ! array the op wrote (`x`: a in place, else out) written back from a staged copy on success,
  ! and finish.
  subroutine op_end(op, x, ierr)
    type(op_call), intent(inout) :: op
    class(*), dimension(..), target, intent(inout) :: x
    integer, intent(out), optional :: ierr
    if (c_associated(op%result)) call copy_result(op%result, op%out, op%status)
    call destroy3(op%ha, op%hs, op%hu)
    if (op%status == TB_OK .and. op%in_place) call write_back(x, op%a)
    if ((op%status == TB_OK .or. op%written) .and. .not. op%in_place) call write_back(x, op%out)
    call finish(op%name, op%status, op%message, ierr, op%a_name)
  end subroutine

  ! C's `result` copied into the memory (or staged copy) of `out`, its size, while status is
  ! TB_OK; then destroyed.
  subroutine copy_result(result, out, status)
    type(c_ptr), intent(in) :: result
    type(array_arg), intent(in) :: out
    integer(c_int), intent(inout) :: status
    if (status == TB_OK) status = c_tb_buffer_copy_to_host(result, out%address, &
        int(dtype_bytes(out%dtype), c_size_t) * int(product(out%dims(1:out%rank)), c_size_t))
    call c_tb_buffer_destroy(result)
  end subroutine

  ! The scatters, one pair of wrappers per combine of the op table (scatter_f.f90.in):
  ! tb_tensor_scatter_nd_<name>_in_place(a, indices, updates [, ierr] [, oob]
  ! [, deterministic] [, device] [, stream]) and tb_tensor_scatter_nd_<name>(a, indices,
  ! updates, out [, ierr] ...): oob a TB_OOB_* (default TB_OOB_DEFAULT), deterministic a
  ! logical (default .false.), device a type(tb_device) (default: where a lives, the host),
  ! stream a cudaStream_t as type(c_ptr).
  include 'tensorbuf_f_scatter.inc'

  ! a[mask] = updates (spec/boolean_mask_update.md), in place or into `out`; `axis` (default 0)
  ! in tensor coordinates, i.e. counted from the last Fortran dimension. `mask`: a logical (of
  ! any kind: `a > 0` will do) or integer(c_int8_t) 0/1 array, read as bool. `broadcast`
  ! (default .true.): updates broadcast to the masked shape; device and stream as the scatters'.
  subroutine tb_boolean_mask_update_in_place(a, mask, updates, ierr, axis, broadcast, device, &
      stream)
    class(*), dimension(..), target, intent(inout) :: a
    class(*), dimension(..), target, intent(in) :: mask, updates
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: axis
    logical, intent(in), optional :: broadcast
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    call op_begin(op, 'tb_boolean_mask_update_in_place', 'mask', a, mask, updates, &
        second_as_bool=.true.)
    if (op%status == TB_OK) op%status = c_tb_boolean_mask_update_in_place_ex(op%ha, op%hs, &
        op%hu, mask_options(op, axis, broadcast, device, stream))
    call op_end(op, a, ierr)
  end subroutine
  subroutine tb_boolean_mask_update(a, mask, updates, out, ierr, axis, broadcast, device, stream)
    class(*), dimension(..), target, intent(in) :: a, mask, updates
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: axis
    logical, intent(in), optional :: broadcast
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    call op_begin(op, 'tb_boolean_mask_update', 'mask', a, mask, updates, out, .true.)
    if (op%status == TB_OK) op%status = c_tb_boolean_mask_update_ex(op%ha, op%hs, op%hu, &
        mask_options(op, axis, broadcast, device, stream), op%result)
    call op_end(op, out, ierr)
  end subroutine

  ! substr (spec/substr.md) of Fortran strings: out(i) is the substring of strings at pos of
  ! at most len units (TB_UNIT_BYTE or TB_UNIT_UTF8_CHAR), blank-padded, for each element i of
  ! the broadcast of strings and pos (their tensor shapes: a rank-2 pos(k, n) is [n, k]), in
  ! array element order. pos and len are the C API's: 0-based, negative from the end (not a
  ! Fortran substring's 1-based start). A string is its first len_trim characters (trailing
  ! blanks are padding), or its first lengths(j) with `lengths`; out_lengths receives each
  ! result's length. `out` must have the result's size and room for each substring, else
  ! TB_INVALID_ARGUMENT before anything is written. oob, device and stream as the scatters'.
  subroutine tb_substr(strings, pos, len, out, ierr, unit, oob, device, stream, lengths, &
      out_lengths)
    character(len=*), intent(in) :: strings(:)
    class(*), dimension(..), target, intent(in) :: pos, len
    character(len=*), intent(inout) :: out(:)
    integer, intent(out), optional :: ierr
    integer(c_int), intent(in), optional :: unit, oob
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    integer, intent(in), optional :: lengths(:)
    integer, intent(inout), optional :: out_lengths(:)
    type(array_arg), target :: pa, la
    type(tb_substr_options), target :: o
    type(tb_device), target :: chosen
    integer(c_int64_t), allocatable, target :: offsets(:)
    character(kind=c_char), allocatable, target :: chars(:)
    type(c_ptr) :: ho, hc, hp, hl, result_offsets, result_chars
    integer(c_int64_t) :: dims(TB_MAX_NDIM)
    integer(c_int) :: status, rank
    character(len=:), allocatable :: message
    ho = c_null_ptr
    hc = c_null_ptr
    hp = c_null_ptr
    hl = c_null_ptr
    call describe(pos, pa)
    call describe(len, la)
    call string_offsets(strings, lengths, offsets, chars, status, message)
    if (status == TB_OK) status = check_arg('tb_substr', 'pos', pa, message)
    if (status == TB_OK) status = check_arg('tb_substr', 'len', la, message)
    if (status == TB_OK) status = c_tb_buffer_borrow(c_loc(offsets), TB_INT64, 1_c_int, &
        [size(offsets, kind=c_int64_t)], tb_device(0, 0), 1_c_int, c_null_ptr, ho)
    if (status == TB_OK) status = c_tb_buffer_borrow(c_loc(chars), TB_UINT8, 1_c_int, &
        [offsets(ubound(offsets, 1))], tb_device(0, 0), 1_c_int, c_null_ptr, hc)
    if (status == TB_OK) status = borrow(pa, .true., .false., hp)
    if (status == TB_OK) status = borrow(la, .true., .false., hl)
    o%struct_size = c_sizeof(o)
    if (present(unit)) o%unit = unit
    if (present(oob)) o%oob = oob
    if (present(stream)) o%stream = stream
    o%device = device_address(device, chosen)
    if (status == TB_OK) then
      status = c_tb_substr(ho, hc, 1_c_int, [size(strings, kind=c_int64_t)], hp, hl, c_loc(o), &
          result_offsets, result_chars, rank, dims)
      if (status == TB_OK) then
        call substr_result(result_offsets, result_chars, product(dims(1:rank)), out, &
            out_lengths, status, message)
        call c_tb_buffer_destroy(result_offsets)
        call c_tb_buffer_destroy(result_chars)
      end if
    end if
    call c_tb_buffer_destroy(ho)
    call c_tb_buffer_destroy(hc)
    call destroy3(hp, hl, c_null_ptr)
    call finish('tb_substr', status, message, ierr)
  end subroutine

  ! gather_nd (docs/gather_nd.md, spec/indexing.md 3): out = the slices of params at the index
  ! tuples of indices, which are 0-based tensor coordinates as the scatters' (indices(k, n) is n
  ! tuples of k; integer(c_int32_t) or integer(c_int64_t)). batch_dims (default 0) counts tensor
  ! dims, i.e. the last Fortran dims of params and indices, which must be equal. out has params'
  ! type and the result's shape: the tensor shape indices.shape[:-1] + params.shape[b+k:], i.e.
  ! in Fortran order params' first rank-b-k dims, then indices' dims 2 and up. Negative
  ! coordinates are out of range. oob (TB_OOB_ERROR on the host by default; TB_OOB_DROP: zeros
  ! for a bad tuple), device and stream as the scatters'.
  subroutine tb_gather_nd(params, indices, out, ierr, batch_dims, oob, device, stream)
    class(*), dimension(..), target, intent(in) :: params, indices
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: batch_dims
    integer(c_int), intent(in), optional :: oob
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_gather_options), target :: o
    o = gather_begin(op, 'tb_gather_nd', params, indices, out, batch_dims=batch_dims, oob=oob, &
        device=device, stream=stream)
    if (op%status == TB_OK) op%status = c_tb_gather_nd(op%ha, op%hs, c_loc(o), op%result)
    call gather_end(op, out, ierr)
  end subroutine

  ! `out` against a result of tensor shape (rank, dims): the same dims, reversed.
  integer(c_int) function check_result_shape(name, out, rank, dims, message) result(status)
    character(len=*), intent(in) :: name
    type(array_arg), intent(in) :: out
    integer(c_int), intent(in) :: rank
    integer(c_int64_t), intent(in) :: dims(:)
    character(len=:), allocatable, intent(inout) :: message
    integer :: i
    status = TB_OK
    if (out%rank == rank) then
      if (all([(out%dims(i) == dims(rank + 1 - i), i = 1, rank)])) return
    end if
    status = TB_INVALID_ARGUMENT
    message = name // ': out has shape '
    call add_shape(message, out)
    message = message // ' but the result has shape ('
    do i = rank, 1, -1
      call add_int(message, dims(i))
      if (i > 1) message = message // ', '
    end do
    message = message // ')'
  end function

  ! `out` of the gathers (wrapper `name`): params' type and the result's tensor shape (rank,
  ! dims) in reverse.
  integer(c_int) function check_gathered(name, params, out, rank, dims, message) result(status)
    character(len=*), intent(in) :: name
    type(array_arg), intent(in) :: params, out
    integer(c_int), intent(in) :: rank
    integer(c_int64_t), intent(in) :: dims(:)
    character(len=:), allocatable, intent(inout) :: message
    status = TB_OK
    if (out%dtype /= params%dtype) then
      status = TB_INVALID_ARGUMENT
      message = name // ': out is '
      call add_dtype(message, out%dtype)
      message = message // ' but params is '
      call add_dtype(message, params%dtype)
      message = message // ' (out must have the type of params)'
      return
    end if
    status = check_result_shape(name, out, rank, dims, message)
  end function

  ! ---- boolean_mask, boolean_mask_into, compress (docs/boolean_mask.md, docs/fortran.md) ----

  ! boolean_mask: out = the slices of a where mask is true. mask (a logical of any kind, or an
  ! integer(c_int8_t) 0/1 array) covers Fortran dims dim to dim + rank(mask) - 1 of a, with
  ! their extents; absent dim: a's last rank(mask) dims (NumPy's a[mask] on the tensor). out
  ! has a's type and shape, those dims replaced by one of n, the count of true entries, taken in
  ! the mask's array element order: out must have exactly that shape (count(mask) gives n).
  subroutine tb_boolean_mask(a, mask, out, ierr, dim, device, stream)
    class(*), dimension(..), target, intent(in) :: a, mask
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: dim
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_boolean_mask_options), target :: o
    integer :: unused
    o = mask_begin(op, 'tb_boolean_mask', a, mask, out, dim, device, stream, unused)
    if (op%status == TB_OK) op%status = c_tb_boolean_mask(op%ha, op%hs, c_loc(o), op%result)
    call check_taken(op)
    call op_end(op, out, ierr)
  end subroutine

  ! boolean_mask into a caller-sized out: a's type and shape with the mask's dims replaced by
  ! one of any capacity c (at dim); count receives n. The first min(n, c) slices are written,
  ! the rest of out keeps what it held. n > c is TB_OUT_OF_RANGE (out holds the first c
  ! slices, count is n): in Fortran the count is read on return, so a short out is reported
  ! rather than left for the caller to compare.
  subroutine tb_boolean_mask_into(a, mask, out, count, ierr, dim, device, stream)
    class(*), dimension(..), target, intent(in) :: a, mask
    class(*), dimension(..), target, intent(inout) :: out
    integer(c_int64_t), intent(out) :: count
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: dim
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    character(len=*), parameter :: name = 'tb_boolean_mask_into'
    type(op_call), target :: op
    type(tb_boolean_mask_options), target :: o
    type(c_ptr) :: hc
    integer(c_int64_t), target :: n(1), n_read(1)
    integer :: capacity_dim
    hc = c_null_ptr
    count = 0
    n = 0
    o = mask_begin(op, name, a, mask, out, dim, device, stream, capacity_dim)
    ! out is written in place: its handle in op%hu, which op_end frees.
    if (op%status == TB_OK) op%status = borrow(op%out, .false., .false., op%hu)
    if (op%status == TB_OK) op%status = c_tb_buffer_borrow(c_loc(n), TB_INT64, 1_c_int, &
        [1_c_int64_t], tb_device(0, 0), 0_c_int, c_null_ptr, hc)
    if (op%status == TB_OK) op%status = c_tb_boolean_mask_into(op%ha, op%hs, op%hu, hc, c_loc(o))
    if (op%status == TB_OK) op%status = c_tb_buffer_copy_to_host(hc, c_loc(n_read), 8_c_size_t)
    call c_tb_buffer_destroy(hc)
    if (op%status == TB_OK) then
      count = n_read(1)
      if (count > op%out%dims(capacity_dim)) then
        op%status = TB_OUT_OF_RANGE
        op%written = .true.
        op%message = name // ': the mask selects '
        call add_int(op%message, count)
        op%message = op%message // ' slices but dim '
        call add_int(op%message, int(capacity_dim, c_int64_t))
        op%message = op%message // ' of out holds '
        call add_int(op%message, op%out%dims(capacity_dim))
        op%message = op%message // ' (out holds the first '
        call add_int(op%message, op%out%dims(capacity_dim))
        op%message = op%message // ')'
      end if
    end if
    call op_end(op, out, ierr)
  end subroutine

  ! ONNX Compress: the slices of a along Fortran dimension dim whose entry of the rank-1
  ! condition is true (a shorter condition is false past its end; a longer one may only be
  ! false there); absent dim: the elements of a in array element order (the flattened tensor),
  ! out rank 1. out has a's type and exactly the result's shape.
  subroutine tb_compress(a, condition, out, ierr, dim, device, stream)
    class(*), dimension(..), target, intent(in) :: a, condition
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: dim
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_compress_options), target :: o
    call op_begin(op, 'tb_compress', 'condition', a, condition, out=out, second_as_bool=.true., &
        out_like_a=.false.)
    if (present(dim)) o%has_axis = 1
    if (op%status == TB_OK) op%status = tensor_axis(op%name, 'a', op%a, dim, o%axis, op%message)
    o%struct_size = c_sizeof(o)
    if (present(stream)) o%stream = stream
    o%device = device_address(device, op%chosen)
    if (op%status == TB_OK) then
      op%status = c_tb_compress(op%ha, op%hs, c_loc(o), op%result)
      if (op%status /= TB_OK) call condition_message(c_string(c_tb_last_error()), dim, op%message)
    end if
    call check_taken(op)
    call op_end(op, out, ierr)
  end subroutine

  ! The start of tb_boolean_mask and tb_boolean_mask_into (`name`): a, mask and out checked
  ! (out's shape is the op's own check), the mask placed by `dim` (mask_axis; `capacity_dim`:
  ! the dim of out that holds the count), a and mask borrowed; their options.
  type(tb_boolean_mask_options) function mask_begin(op, name, a, mask, out, dim, device, &
      stream, capacity_dim) result(o)
    type(op_call), target, intent(inout) :: op
    character(len=*), intent(in) :: name
    class(*), dimension(..), target, intent(in) :: a, mask, out
    integer, intent(in), optional :: dim
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    integer, intent(out) :: capacity_dim
    capacity_dim = 1
    call op_begin(op, name, 'mask', a, mask, out=out, second_as_bool=.true., out_like_a=.false.)
    if (op%status == TB_OK) op%status = mask_axis(name, op%a, op%second, dim, o%axis, &
        capacity_dim, op%message)
    o%struct_size = c_sizeof(o)
    if (present(stream)) o%stream = stream
    o%device = device_address(device, op%chosen)
  end function

  ! compress's true condition entry past the axis ("Condition entry 2 is true, but the axis has
  ! only 2 entries (condition of length 3).", 0-based) restated with the Fortran subscript and
  ! dim, C's text kept beside it; any other text is left to finish.
  subroutine condition_message(text, dim, message)
    character(len=*), intent(in) :: text
    integer, intent(in), optional :: dim
    character(len=:), allocatable, intent(inout) :: message
    character(len=*), parameter :: marker = 'Condition entry ', tail = ' is true'
    integer(c_int64_t), allocatable :: entry(:)
    integer :: at, close, colon
    at = index(text, marker)
    close = index(text, tail)
    if (at == 0 .or. close <= at + len(marker)) return
    allocate(entry(0))    ! as in fortran_message
    entry = int_list(text(at + len(marker):close - 1))
    colon = index(text, ': ')
    message = 'tb_compress: condition('
    call add_int(message, entry(1) + 1)
    message = message // ') is true, past the end of '
    if (present(dim)) then
      message = message // 'dim '
      call add_int(message, int(dim, c_int64_t))
      message = message // ' of a'
    else
      message = message // 'a'
    end if
    message = message // ' (as a tensor: ' // text(colon + 2:) // ')'
  end subroutine

  ! The tensor axis of a mask of rank k placed at Fortran dim `dim` of `a` (absent: a's last k
  ! dims, axis 0), and the dim of the count in the result (`capacity_dim`).
  integer(c_int) function mask_axis(name, a, mask, dim, axis, capacity_dim, message) &
      result(status)
    character(len=*), intent(in) :: name
    type(array_arg), intent(in) :: a, mask
    integer, intent(in), optional :: dim
    integer(c_int), intent(out) :: axis
    integer, intent(out) :: capacity_dim
    character(len=:), allocatable, intent(inout) :: message
    integer :: first
    status = TB_OK
    axis = 0
    first = a%rank - mask%rank + 1
    if (present(dim)) first = dim
    capacity_dim = max(first, 1)
    if (.not. present(dim)) return
    if (dim >= 1 .and. dim + mask%rank - 1 <= a%rank) then
      axis = int(a%rank - dim - mask%rank + 1, c_int)
      return
    end if
    status = TB_INVALID_ARGUMENT
    message = name // ': dim = '
    call add_int(message, int(dim, c_int64_t))
    message = message // ' with a mask of rank '
    call add_int(message, int(mask%rank, c_int64_t))
    message = message // ' does not fit in a, of rank '
    call add_int(message, int(a%rank, c_int64_t))
    message = message // ' (the mask covers dims dim to dim + rank(mask) - 1)'
  end function

  ! C's result (when an op made one) against op%out, which takes it as it is (check_result).
  subroutine check_taken(op)
    type(op_call), intent(inout) :: op
    integer(c_int64_t) :: dims(TB_MAX_NDIM)
    integer(c_int) :: rank, dtype
    if (op%status /= TB_OK .or. .not. c_associated(op%result)) return
    op%status = c_tb_buffer_dtype(op%result, dtype)
    if (op%status == TB_OK) op%status = c_tb_buffer_shape(op%result, rank, dims)
    if (op%status == TB_OK) op%status = check_result(op%name, dtype, op%out, rank, dims, &
        op%message)
  end subroutine

  ! `out` of the mask and processing wrappers against a result of `dtype` and tensor shape
  ! (rank, dims): the Fortran type that holds that dtype (add_fortran_type) and the dims reversed.
  integer(c_int) function check_result(name, dtype, out, rank, dims, message) result(status)
    character(len=*), intent(in) :: name
    integer(c_int), intent(in) :: dtype, rank
    type(array_arg), intent(in) :: out
    integer(c_int64_t), intent(in) :: dims(:)
    character(len=:), allocatable, intent(inout) :: message
    status = TB_OK
    if (out%dtype /= holder_dtype(dtype)) then
      status = TB_INVALID_ARGUMENT
      message = name // ': out is '
      call add_dtype(message, out%dtype)
      message = message // ' but the result is '
      call add_dtype(message, dtype)
      message = message // ' (out must be '
      call add_fortran_type(message, dtype)
      message = message // ')'
      return
    end if
    status = check_result_shape(name, out, rank, dims, message)
  end function

  ! The dtype of the Fortran arrays that hold `dtype`: uint8 in integer(c_int8_t) (its bytes),
  ! float16 and bfloat16 in integer(c_int16_t) (their bits), the others in their own type.
  integer(c_int) function holder_dtype(dtype)
    integer(c_int), intent(in) :: dtype
    holder_dtype = dtype
    if (dtype == TB_UINT8) holder_dtype = TB_INT8
    if (dtype == TB_FLOAT16 .or. dtype == TB_BFLOAT16) holder_dtype = TB_INT16
  end function

  subroutine add_fortran_type(text, dtype)
    character(len=:), allocatable, intent(inout) :: text
    integer(c_int), intent(in) :: dtype
    if (known_dtype(dtype)) then
      text = text // trim(fortran_types(dtype))
    else
      text = text // 'real(c_double)'
    end if
  end subroutine

  ! ---- normalize, quantize, dequantize, cast, quantize_linear, dequantize_linear ----------
  ! (docs/processing.md, docs/fortran.md). Each writes its result into `out`, which must have
  ! x's shape and the Fortran type of the result's dtype (check_result): float32 for normalize,
  ! quantize and dequantize (x's own for an identity), `dtype` for cast, the zero point's for
  ! quantize_linear, scale's floating type for dequantize_linear. Fortran has no unsigned or
  ! 16-bit float types: `unsigned` (default .false.) reads the integer(c_int8_t) inputs (x, a
  ! zero point) as uint8, `half` (TB_FLOAT16 or TB_BFLOAT16) the integer(c_int16_t) x as the
  ! bits of that dtype; a uint8 result lands in an integer(c_int8_t) out (its bytes), a 16-bit
  ! float result in an integer(c_int16_t) out (its bits). device and stream as the scatters'.

  ! NormalizeOp: out = (real(x, c_float) - mean) / stddev. mean and stddev: scalars (mean 0 with
  ! stddev 0 or +-inf is the identity), or rank-1 arrays of one value per channel along x's
  ! first Fortran dimension (the tensor's last axis).
  subroutine tb_normalize(x, mean, stddev, out, ierr, unsigned, half, device, stream)
    class(*), dimension(..), target, intent(in) :: x
    real(c_float), dimension(..), intent(in) :: mean, stddev
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    logical, intent(in), optional :: unsigned
    integer(c_int), intent(in), optional :: half
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_process_options), target :: o
    real(c_float), allocatable :: means(:), stddevs(:)
    o = process_begin(op, 'tb_normalize', x, out, unsigned, half, device, stream)
    allocate(means(0), stddevs(0))    ! as in fortran_message
    select rank (mean)
    rank (0)
      means = [mean]
    rank (1)
      means = mean
    end select
    select rank (stddev)
    rank (0)
      stddevs = [stddev]
    rank (1)
      stddevs = stddev
    end select
    if (op%status == TB_OK .and. (rank(mean) > 1 .or. rank(mean) /= rank(stddev))) then
      op%status = TB_INVALID_ARGUMENT
      op%message = 'tb_normalize: mean and stddev must be both scalars or both rank-1 arrays'
    else if (op%status == TB_OK .and. size(means) /= size(stddevs)) then
      op%status = TB_INVALID_ARGUMENT    ! C takes one count for both
      op%message = 'tb_normalize: mean has '
      call add_int(op%message, size(means, kind=c_int64_t))
      op%message = op%message // ' values but stddev '
      call add_int(op%message, size(stddevs, kind=c_int64_t))
    end if
    if (op%status == TB_OK) then
      if (rank(mean) == 0) then
        op%status = c_tb_normalize(op%ha, means(1), stddevs(1), c_loc(o), op%result)
      else
        op%status = c_tb_normalize_channels(op%ha, means, stddevs, &
            size(means, kind=c_int64_t), c_loc(o), op%result)
      end if
    end if
    call process_end(op, out, ierr)
  end subroutine

  ! QuantizeOp: out = normalize(x, -zero_point * scale, scale), float32.
  subroutine tb_quantize(x, zero_point, scale, out, ierr, unsigned, half, device, stream)
    class(*), dimension(..), target, intent(in) :: x
    real(c_float), intent(in) :: zero_point, scale
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    logical, intent(in), optional :: unsigned
    integer(c_int), intent(in), optional :: half
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_process_options), target :: o
    o = process_begin(op, 'tb_quantize', x, out, unsigned, half, device, stream)
    if (op%status == TB_OK) op%status = c_tb_quantize(op%ha, zero_point, scale, c_loc(o), &
        op%result)
    call process_end(op, out, ierr)
  end subroutine

  ! DequantizeOp: out = normalize(x, zero_point, 1 / scale), float32.
  subroutine tb_dequantize(x, zero_point, scale, out, ierr, unsigned, half, device, stream)
    class(*), dimension(..), target, intent(in) :: x
    real(c_float), intent(in) :: zero_point, scale
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    logical, intent(in), optional :: unsigned
    integer(c_int), intent(in), optional :: half
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_process_options), target :: o
    o = process_begin(op, 'tb_dequantize', x, out, unsigned, half, device, stream)
    if (op%status == TB_OK) op%status = c_tb_dequantize(op%ha, zero_point, scale, c_loc(o), &
        op%result)
    call process_end(op, out, ierr)
  end subroutine

  ! CastOp: out = x converted to `dtype` (a TB_* dtype; tensor_buffer.md's conversion).
  subroutine tb_cast(x, dtype, out, ierr, unsigned, half, device, stream)
    class(*), dimension(..), target, intent(in) :: x
    integer(c_int), intent(in) :: dtype
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    logical, intent(in), optional :: unsigned
    integer(c_int), intent(in), optional :: half
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_process_options), target :: o
    o = process_begin(op, 'tb_cast', x, out, unsigned, half, device, stream)
    if (op%status == TB_OK) op%status = c_tb_cast(op%ha, dtype, c_loc(o), op%result)
    call process_end(op, out, ierr)
  end subroutine

  ! ONNX QuantizeLinear (opset 13): out = saturate(round_half_even(x / scale) + zero_point), of
  ! zero_point's type (integer(c_int8_t): int8, or uint8 with `unsigned`). scale (real(c_float)
  ! or real(c_double)) and zero_point have one element (per tensor) or are rank-1 along
  ! Fortran dimension dim of x (per axis); absent dim: ONNX's axis 1, i.e. Fortran dim
  ! rank(x) - 1 (the channels of an NCHW tensor x(W, H, C, N)).
  subroutine tb_quantize_linear(x, scale, zero_point, out, ierr, dim, unsigned, half, device, &
      stream)
    class(*), dimension(..), target, intent(in) :: x, scale, zero_point
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: dim
    logical, intent(in), optional :: unsigned
    integer(c_int), intent(in), optional :: half
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_quantize_linear_options), target :: o
    o = linear_begin(op, 'tb_quantize_linear', x, scale, zero_point, out, dim, unsigned, &
        half, device, stream)
    if (op%status == TB_OK) op%status = c_tb_quantize_linear(op%ha, op%hs, op%hu, c_loc(o), &
        op%result)
    call process_end(op, out, ierr)
  end subroutine

  ! ONNX DequantizeLinear (opset 13): out = (x - zero_point) * scale, real(c_float); x and
  ! zero_point of one type (int8, uint8 with `unsigned`, or int32 with a zero zero point). scale,
  ! zero_point and dim as tb_quantize_linear's.
  subroutine tb_dequantize_linear(x, scale, zero_point, out, ierr, dim, unsigned, device, stream)
    class(*), dimension(..), target, intent(in) :: x, scale, zero_point
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: dim
    logical, intent(in), optional :: unsigned
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_quantize_linear_options), target :: o
    o = linear_begin(op, 'tb_dequantize_linear', x, scale, zero_point, out, dim, &
        unsigned, device=device, stream=stream)
    if (op%status == TB_OK) op%status = c_tb_dequantize_linear(op%ha, op%hs, op%hu, c_loc(o), &
        op%result)
    call process_end(op, out, ierr)
  end subroutine

  ! The start of both: x and out as process_begin's, then scale (op%second) and zero_point
  ! (op%updates; `unsigned` applies to it too) checked and borrowed, and `dim`.
  type(tb_quantize_linear_options) function linear_begin(op, name, x, scale, zero_point, out, &
      dim, unsigned, half, device, stream) result(o)
    type(op_call), target, intent(inout) :: op
    character(len=*), intent(in) :: name
    class(*), dimension(..), target, intent(in) :: x, scale, zero_point, out
    integer, intent(in), optional :: dim
    logical, intent(in), optional :: unsigned
    integer(c_int), intent(in), optional :: half
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    o%struct_size = c_sizeof(o)
    if (present(stream)) o%stream = stream
    o%device = device_address(device, op%chosen)
    call process_args(op, name, x, out, unsigned, half)
    call describe(scale, op%second)
    call describe(zero_point, op%updates)
    if (op%status == TB_OK) op%status = check_arg(name, 'scale', op%second, op%message)
    if (op%status == TB_OK) op%status = check_arg(name, 'zero_point', op%updates, op%message)
    if (op%status == TB_OK .and. present(dim)) &
        op%status = tensor_axis(name, 'x', op%a, dim, o%axis, op%message)
    if (flag(unsigned, .false.) == 1 .and. op%updates%dtype == TB_INT8) &
        op%updates%dtype = TB_UINT8
    if (op%status == TB_OK) op%status = borrow(op%second, .true., .false., op%hs)
    if (op%status == TB_OK) op%status = borrow(op%updates, .true., .false., op%hu)
  end function

  subroutine process_options(o, chosen, device, stream)
    type(tb_process_options), intent(out) :: o
    type(tb_device), target, intent(out) :: chosen
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    o%struct_size = c_sizeof(o)
    if (present(stream)) o%stream = stream
    o%device = device_address(device, chosen)
  end subroutine

  ! The start of a processing wrapper's op_call: its options (process_options).
  type(tb_process_options) function process_begin(op, name, x, out, unsigned, half, device, &
      stream) result(o)
    type(op_call), target, intent(inout) :: op
    character(len=*), intent(in) :: name
    class(*), dimension(..), target, intent(in) :: x, out
    logical, intent(in), optional :: unsigned
    integer(c_int), intent(in), optional :: half
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    call process_options(o, op%chosen, device, stream)
    call process_args(op, name, x, out, unsigned, half)
  end function

  ! x (op%a, named 'x') and out of a processing wrapper, described and checked; x borrowed with
  ! `unsigned` and `half` applied to its dtype.
  subroutine process_args(op, name, x, out, unsigned, half)
    type(op_call), target, intent(inout) :: op
    character(len=*), intent(in) :: name
    class(*), dimension(..), target, intent(in) :: x, out
    logical, intent(in), optional :: unsigned
    integer(c_int), intent(in), optional :: half
    op%name = name
    op%a_name = 'x'
    op%in_place = .false.
    call describe(x, op%a)
    call describe(out, op%out)
    op%status = check_arg(name, 'x', op%a, op%message)
    if (op%status == TB_OK) op%status = check_arg(name, 'out', op%out, op%message)
    if (op%status /= TB_OK) return
    if (present(half)) then
      if (half /= TB_FLOAT16 .and. half /= TB_BFLOAT16) then
        op%status = TB_INVALID_ARGUMENT
        op%message = name // ': half = '
        call add_int(op%message, int(half, c_int64_t))
        op%message = op%message // ' is neither TB_FLOAT16 nor TB_BFLOAT16'
        return
      end if
      if (op%a%dtype == TB_INT16) op%a%dtype = half
    end if
    if (flag(unsigned, .false.) == 1 .and. op%a%dtype == TB_INT8) op%a%dtype = TB_UINT8
    op%status = borrow(op%a, .true., .false., op%ha)
  end subroutine

  ! The processing ops' messages that name an axis of x ("2 means (stddevs) for a last axis of
  ! shape [2,3]: ...", "2 scales for axis 0 of x of shape [3,2]") restated with the Fortran dim
  ! and shape of x, C's text kept beside it; any other text is left to finish.
  subroutine axis_message(name, text, message)
    character(len=*), intent(in) :: name, text
    character(len=:), allocatable, intent(inout) :: message
    character(len=*), parameter :: last = ' for a last axis of shape [', axis = ' for axis ', &
        of = ' of x of shape ['
    integer(c_int64_t), allocatable :: dims(:), number(:)
    integer :: at, shape_at, close, colon, i
    integer(c_int64_t) :: dim
    colon = index(text, ': ')    ! after C's function name
    allocate(dims(0), number(0))    ! as in fortran_message
    at = index(text, last)
    if (at > 0) then
      shape_at = at + len(last)
      dim = 1
    else
      at = index(text, axis)
      shape_at = index(text, of)
      if (at == 0 .or. shape_at < at) return
      number = int_list(text(at + len(axis):shape_at - 1))
      shape_at = shape_at + len(of)
    end if
    close = index(text(shape_at:), ']')
    if (close == 0 .or. colon == 0) return
    dims = int_list(text(shape_at:shape_at + close - 2))
    if (index(text, last) == 0) dim = size(dims) - number(1)
    message = name // ': ' // text(index(text(1:at), ': ', back=.true.) + 2:at - 1) // ' for dim '
    call add_int(message, dim)
    message = message // ' of x('
    do i = size(dims), 1, -1
      call add_int(message, dims(i))
      if (i > 1) message = message // ', '
    end do
    message = message // ') (as a tensor: ' // text(colon + 2:) // ')'
  end subroutine

  ! The end of a processing wrapper: C's result checked (check_taken), a message naming an axis
  ! restated (axis_message), then op_end.
  subroutine process_end(op, out, ierr)
    type(op_call), intent(inout) :: op
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    call check_taken(op)
    if (op%status /= TB_OK .and. .not. allocated(op%message)) &
        call axis_message(op%name, c_string(c_tb_last_error()), op%message)
    call op_end(op, out, ierr)
  end subroutine

  ! The elements ops' bad index, "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]"
  ! (C's: 0-based, tensor order), restated as the Fortran wrappers take it: the 1-based index
  ! at its subscripts in the indices array, the dim of `array` it indexes and its Fortran shape,
  ! the tensor's text kept beside it. `found`: the text is such a message.
  subroutine elements_message(text, message, array, found)
    character(len=*), intent(in) :: text
    character(len=:), allocatable, intent(out) :: message
    character(len=*), intent(in) :: array
    logical, intent(out) :: found
    character(len=*), parameter :: marker = ' is out of range for axis ', of = ' of shape ['
    integer(c_int64_t), allocatable :: position(:), value(:), axis(:), dims(:)
    integer :: at, eq, tuple, shape_at, close, i
    found = .false.
    at = index(text, marker)
    if (at == 0) return
    eq = index(text(1:at), ' = ', back=.true.)
    tuple = 0
    if (eq > 0) tuple = index(text(1:eq), 'indices', back=.true.)
    shape_at = index(text(at:), of)
    if (tuple == 0 .or. shape_at == 0) return
    shape_at = shape_at + at - 1
    close = index(text(shape_at + len(of):), ']')
    if (close == 0) return
    found = .true.
    allocate(position(0), value(0), axis(0), dims(0))    ! as in fortran_message
    position = int_list(text(tuple + 7:eq - 1))
    value = int_list(text(eq + 3:at - 1))
    axis = int_list(text(at + len(marker):shape_at - 1))
    dims = int_list(text(shape_at + len(of):shape_at + len(of) + close - 2))
    message = text(1:tuple - 1) // 'indices'
    if (size(position) > 0) then
      message = message // '('
      do i = size(position), 1, -1
        call add_int(message, position(i) + 1)
        if (i > 1) message = message // ', '
      end do
      message = message // ')'
    end if
    message = message // ' = '
    call add_int(message, value(1) + 1)
    message = message // ' is out of range for dim '
    call add_int(message, size(dims) - axis(1))
    message = message // ' of ' // array // '('
    do i = size(dims), 1, -1
      call add_int(message, dims(i))
      if (i > 1) message = message // ', '
    end do
    message = message // ') (as a tensor: ' // text(tuple:) // ')'
  end subroutine

  ! Fortran's 1-based indices as C's 0-based ones: `arg` (int32 or int64; another type is left
  ! for C to refuse) becomes `shifted`, a copy of its values minus 1. An index v <= 0 is then
  ! v - 1 < 0, which C counts from the end: v = 0 names the last element, as v = s does.
  subroutine one_based(arg, shifted)
    type(array_arg), intent(inout) :: arg
    integer(c_int64_t), allocatable, target, intent(inout) :: shifted(:)
    integer(c_int32_t), pointer :: i32(:)
    integer(c_int64_t), pointer :: i64(:)
    integer(c_int64_t) :: n
    if (arg%dtype /= TB_INT32 .and. arg%dtype /= TB_INT64) return
    n = product(arg%dims(1:arg%rank))
    allocate(shifted(max(n, 1_c_int64_t)))  ! c_loc of an empty array is not portable
    if (arg%dtype == TB_INT32) then
      call c_f_pointer(arg%address, i32, [n])
      shifted(1:n) = int(i32, c_int64_t) - 1
    else
      call c_f_pointer(arg%address, i64, [n])
      shifted(1:n) = i64
      where (i64 > -huge(i64)) shifted(1:n) = i64 - 1  ! the smallest is out of range as it is
    end if
    arg%dtype = TB_INT64
    arg%address = c_loc(shifted)
  end subroutine

  ! C's axis of Fortran dimension `dim` (1-based; absent: the last, C's default axis 0) of
  ! `arg` (`what`), whose dims are the tensor's in reverse order.
  integer(c_int) function tensor_axis(name, what, arg, dim, axis, message) result(status)
    character(len=*), intent(in) :: name, what
    type(array_arg), intent(in) :: arg
    integer, intent(in), optional :: dim
    integer(c_int), intent(out) :: axis
    character(len=:), allocatable, intent(inout) :: message
    status = TB_OK
    axis = 0
    if (.not. present(dim)) return
    if (dim >= 1 .and. dim <= arg%rank) then
      axis = int(arg%rank - dim, c_int)
      return
    end if
    status = TB_INVALID_ARGUMENT
    message = name // ': dim = '
    call add_int(message, int(dim, c_int64_t))
    message = message // ' is not a dimension of ' // what // ', of rank '
    call add_int(message, int(arg%rank, c_int64_t))
  end function

  ! gather and gather_elements (docs/elements.md, spec/indexing.md 4) over Fortran arrays, with
  ! 1-based indices (integer(c_int32_t) or integer(c_int64_t); v <= 0 counts from the end: 0 is
  ! the last, 1 - s the first) along Fortran dimension `dim` of params (default: the last).
  ! tb_gather: out(..., indices..., ...) = params(..., indices(...), ...), i.e. out's dims are
  ! params' dims before dim, then indices' dims, then params' dims after dim (a scalar index
  ! drops dim); batch_dims (default 0) counts the last dims of params and indices, which must be
  ! equal, and come last in out. tb_gather_elements: out has indices' shape, of params' rank,
  ! and out(i, j, ...) = params(i, j, ...) with the subscript of dim replaced by indices(i, j,
  ! ...). out has params' type; oob (TB_OOB_DROP: zero for a bad index), device and stream as
  ! the scatters'.
  subroutine tb_gather(params, indices, out, ierr, dim, batch_dims, oob, device, stream)
    class(*), dimension(..), target, intent(in) :: params, indices
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: dim, batch_dims
    integer(c_int), intent(in), optional :: oob
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_gather_options), target :: o
    o = gather_begin(op, 'tb_gather', params, indices, out, dim, batch_dims, oob, device, &
        stream)
    if (op%status == TB_OK) op%status = c_tb_gather(op%ha, op%hs, c_loc(o), op%result)
    call gather_end(op, out, ierr)
  end subroutine
  subroutine tb_gather_elements(params, indices, out, ierr, dim, oob, device, stream)
    class(*), dimension(..), target, intent(in) :: params, indices
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: dim
    integer(c_int), intent(in), optional :: oob
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_gather_options), target :: o
    o = gather_begin(op, 'tb_gather_elements', params, indices, out, dim, oob=oob, &
        device=device, stream=stream)
    if (op%status == TB_OK) op%status = c_tb_gather_elements(op%ha, op%hs, c_loc(o), op%result)
    call gather_end(op, out, ierr)
  end subroutine

  ! The start of the three gathers' op_call (`name`): tb_gather_nd's indices are tuples of
  ! 0-based tensor coordinates, the others' 1-based subscripts along `dim`; their options.
  type(tb_gather_options) function gather_begin(op, name, params, indices, out, dim, &
      batch_dims, oob, device, stream) result(o)
    type(op_call), target, intent(inout) :: op
    character(len=*), intent(in) :: name
    class(*), dimension(..), target, intent(in) :: params, indices, out
    integer, intent(in), optional :: dim, batch_dims
    integer(c_int), intent(in), optional :: oob
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    logical :: along_dim
    along_dim = name /= 'tb_gather_nd'
    call op_begin(op, name, 'indices', params, indices, out=out, one_based_second=along_dim, &
        a_name='params', out_like_a=.false.)
    if (along_dim .and. op%status == TB_OK) &
        op%status = tensor_axis(name, 'params', op%a, dim, o%axis, op%message)
    o%struct_size = c_sizeof(o)
    if (present(oob)) o%oob = oob
    if (present(batch_dims)) o%batch_dims = int(batch_dims, c_int)
    if (present(stream)) o%stream = stream
    o%device = device_address(device, op%chosen)
  end function

  ! The end of a gather: C's result checked against out (params' type, the result's shape).
  subroutine gather_end(op, out, ierr)
    type(op_call), intent(inout) :: op
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: dims(TB_MAX_NDIM)
    integer(c_int) :: rank
    if (op%status == TB_OK) op%status = c_tb_buffer_shape(op%result, rank, dims)
    if (op%status == TB_OK) op%status = check_gathered(op%name, op%a, op%out, rank, dims, &
        op%message)
    call op_end(op, out, ierr)
  end subroutine

  ! scatter_elements (docs/elements.md, spec/indexing.md 2) over Fortran arrays: for each
  ! element of indices in array element order, a(i, j, ...) with the subscript of dim replaced
  ! by indices(i, j, ...) = its combine with updates(i, j, ...). indices (1-based as
  ! tb_gather's) and updates (a's type) have one shape, of a's rank, no larger than a's off
  ! dim. dim: a Fortran dimension of a (default: the last); reduction a TB_REDUCTION_* (default
  ! TB_REDUCTION_NONE: assign, the last duplicate wins on the host); oob (TB_OOB_DROP: a bad
  ! index is skipped), deterministic, device and stream as the scatters'. In place, or into
  ! `out` (a's type and shape); on failure nothing is written.
  subroutine tb_scatter_elements_in_place(a, indices, updates, ierr, dim, reduction, oob, &
      deterministic, device, stream)
    class(*), dimension(..), target, intent(inout) :: a
    class(*), dimension(..), target, intent(in) :: indices, updates
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: dim
    integer(c_int), intent(in), optional :: reduction, oob
    logical, intent(in), optional :: deterministic
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_scatter_elements_options), target :: o
    call op_begin(op, 'tb_scatter_elements_in_place', 'indices', a, indices, updates, &
        one_based_second=.true.)
    o = elements_options(op, dim, reduction, oob, deterministic, device, stream)
    if (op%status == TB_OK) op%status = c_tb_scatter_elements_in_place(op%ha, op%hs, op%hu, &
        c_loc(o))
    call op_end(op, a, ierr)
  end subroutine
  subroutine tb_scatter_elements(a, indices, updates, out, ierr, dim, reduction, oob, &
      deterministic, device, stream)
    class(*), dimension(..), target, intent(in) :: a, indices, updates
    class(*), dimension(..), target, intent(inout) :: out
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: dim
    integer(c_int), intent(in), optional :: reduction, oob
    logical, intent(in), optional :: deterministic
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    type(op_call), target :: op
    type(tb_scatter_elements_options), target :: o
    call op_begin(op, 'tb_scatter_elements', 'indices', a, indices, updates, out, &
        one_based_second=.true.)
    o = elements_options(op, dim, reduction, oob, deterministic, device, stream)
    if (op%status == TB_OK) op%status = c_tb_scatter_elements(op%ha, op%hs, op%hu, c_loc(o), &
        op%result)
    call op_end(op, out, ierr)
  end subroutine

  ! The options of both (`dim` checked against a, after op_begin's checks).
  type(tb_scatter_elements_options) function elements_options(op, dim, reduction, oob, &
      deterministic, device, stream) result(o)
    type(op_call), target, intent(inout) :: op
    integer, intent(in), optional :: dim
    integer(c_int), intent(in), optional :: reduction, oob
    logical, intent(in), optional :: deterministic
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
    if (op%status == TB_OK) op%status = tensor_axis(op%name, 'a', op%a, dim, o%axis, op%message)
    o%struct_size = c_sizeof(o)
    if (present(reduction)) o%reduction = reduction
    if (present(oob)) o%oob = oob
    o%deterministic = flag(deterministic, .false.)
    if (present(stream)) o%stream = stream
    o%device = device_address(device, op%chosen)
  end function

  ! The Arrow large_string layout of `strings` (each its first lengths(i) characters, else its
  ! len_trim): offsets(0:n), and chars (one element at least: c_loc of an empty array is not
  ! portable).
  subroutine string_offsets(strings, lengths, offsets, chars, status, message)
    character(len=*), intent(in) :: strings(:)
    integer, intent(in), optional :: lengths(:)
    integer(c_int64_t), allocatable, intent(out) :: offsets(:)
    character(kind=c_char), allocatable, intent(out) :: chars(:)
    integer(c_int), intent(out) :: status
    character(len=:), allocatable, intent(inout) :: message
    integer :: i, j, n
    n = size(strings)
    allocate(offsets(0:n))
    offsets(0) = 0
    status = TB_OK
    if (present(lengths)) then
      if (size(lengths) /= n) then
        status = TB_INVALID_ARGUMENT
        message = 'tb_substr: lengths has '
        call add_int(message, size(lengths, kind=c_int64_t))
        message = message // ' elements but strings has '
        call add_int(message, int(n, c_int64_t))
      else if (any(lengths < 0 .or. lengths > len(strings))) then
        status = TB_INVALID_ARGUMENT
        i = findloc(lengths < 0 .or. lengths > len(strings), .true., 1)
        message = 'tb_substr: lengths('
        call add_int(message, int(i, c_int64_t))
        message = message // ') is '
        call add_int(message, int(lengths(i), c_int64_t))
        message = message // ', outside 0 to len(strings) = '
        call add_int(message, int(len(strings), c_int64_t))
      end if
    end if
    do i = 1, n
      if (present(lengths) .and. status == TB_OK) then
        offsets(i) = offsets(i - 1) + lengths(i)
      else
        offsets(i) = offsets(i - 1) + len_trim(strings(i))
      end if
    end do
    allocate(chars(max(1_c_int64_t, offsets(n))))
    do i = 1, n
      do j = 1, int(offsets(i) - offsets(i - 1))
        chars(offsets(i - 1) + j) = strings(i)(j:j)
      end do
    end do
  end subroutine

  ! Reads substr's result (`count` strings as offsets + chars) into out and out_lengths, after
  ! checking that they can hold it (else TB_INVALID_ARGUMENT, nothing written).
  subroutine substr_result(result_offsets, result_chars, count, out, out_lengths, status, &
      message)
    type(c_ptr), intent(in) :: result_offsets, result_chars
    integer(c_int64_t), intent(in) :: count
    character(len=*), intent(inout) :: out(:)
    integer, intent(inout), optional :: out_lengths(:)
    integer(c_int), intent(out) :: status
    character(len=:), allocatable, intent(inout) :: message
    integer(c_int64_t), allocatable, target :: offsets(:)
    character(kind=c_char), allocatable, target :: chars(:)
    integer(c_int64_t) :: i, j, too_long
    status = TB_OK
    if (size(out, kind=c_int64_t) /= count .or. present(out_lengths) .and. &
        size(out_lengths, kind=c_int64_t) /= count) then
      status = TB_INVALID_ARGUMENT
      message = 'tb_substr: the result has '
      call add_int(message, count)
      message = message // ' strings (the broadcast of strings and pos) but out has '
      call add_int(message, size(out, kind=c_int64_t))
      if (present(out_lengths)) then
        message = message // ' and out_lengths '
        call add_int(message, size(out_lengths, kind=c_int64_t))
      end if
      return
    end if
    allocate(offsets(0:count))
    status = c_tb_buffer_copy_to_host(result_offsets, c_loc(offsets), &
        int(8 * (count + 1), c_size_t))
    if (status /= TB_OK) return
    allocate(chars(max(1_c_int64_t, offsets(count))))
    status = c_tb_buffer_copy_to_host(result_chars, c_loc(chars), int(offsets(count), c_size_t))
    if (status /= TB_OK) return
    too_long = 0
    do i = count, 1, -1
      if (offsets(i) - offsets(i - 1) > len(out)) too_long = i
    end do
    if (too_long > 0) then
      status = TB_INVALID_ARGUMENT
      message = 'tb_substr: out('
      call add_int(message, too_long)
      message = message // ') would hold '
      call add_int(message, offsets(too_long) - offsets(too_long - 1))
      message = message // ' characters but out has len '
      call add_int(message, int(len(out), c_int64_t))
      return
    end if
    do i = 1, count
      out(i) = ''
      do j = 1, offsets(i) - offsets(i - 1)
        out(i)(j:j) = chars(offsets(i - 1) + j)
      end do
      if (present(out_lengths)) out_lengths(i) = int(offsets(i) - offsets(i - 1))
    end do
  end subroutine

end module tensorbuf_f
