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
! (The ops that index along one Fortran dimension `dim` take 1-based subscripts along it
! instead.)
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
  ! The mask ops' and the processing ops' helpers.
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

  ! Each op's wrappers, in the op table's order: fortran/<op>_f.inc for each row that claims
  ! Fortran, listed in op_wrappers_f.inc (generated from the table by CMakeLists.txt). The
  ! scatters', one pair per combine of the table, come from scatter_f.f90.in:
  ! tb_tensor_scatter_nd_<name>_in_place(a, indices, updates [, ierr] [, oob]
  ! [, deterministic] [, device] [, stream]) and tb_tensor_scatter_nd_<name>(a, indices,
  ! updates, out [, ierr] ...): oob a TB_OOB_* (default TB_OOB_DEFAULT), deterministic a
  ! logical (default .false.), device a type(tb_device) (default: where a lives, the host),
  ! stream a cudaStream_t as type(c_ptr).
  include 'op_wrappers_f.inc'

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

  ! ---- The mask ops (docs/fortran.md) ------------------------------------------------------

  ! The start of the mask ops that take a mask (`name`): a, mask and out checked
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

  ! ---- The processing ops (docs/processing.md, docs/fortran.md) ---------------------------
  ! Each writes its result into `out`, which must have x's shape and the Fortran type of the
  ! result's dtype (check_result; each op's comment says which). Fortran has no unsigned or
  ! 16-bit float types: `unsigned` (default .false.) reads the integer(c_int8_t) inputs (x, a
  ! zero point) as uint8, `half` (TB_FLOAT16 or TB_BFLOAT16) the integer(c_int16_t) x as the
  ! bits of that dtype; a uint8 result lands in an integer(c_int8_t) out (its bytes), a 16-bit
  ! float result in an integer(c_int16_t) out (its bits). device and stream as the scatters'.

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

  ! The start of one of the gathers' op_call (`name`): its indices are tuples of 0-based tensor
  ! coordinates, or with `along_dim` 1-based subscripts along `dim`; its options.
  type(tb_gather_options) function gather_begin(op, name, along_dim, params, indices, out, dim, &
      batch_dims, oob, device, stream) result(o)
    type(op_call), target, intent(inout) :: op
    character(len=*), intent(in) :: name
    logical, intent(in) :: along_dim
    class(*), dimension(..), target, intent(in) :: params, indices, out
    integer, intent(in), optional :: dim, batch_dims
    integer(c_int), intent(in), optional :: oob
    type(tb_device), intent(in), optional :: device
    type(c_ptr), intent(in), optional :: stream
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

  ! The end of one of the gathers: C's result against out (params' type, the result's shape).
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

end module tensorbuf_f
