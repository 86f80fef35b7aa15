! tb_substr over Fortran strings (spec/substr.md; docs/c_api.md "Fortran"): blank padding,
! `lengths` for strings that end in blanks, broadcasting, UTF-8 units, the policy, and what the
! wrapper refuses before anything is written (ctest fortran.substr).
program test_substr
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  implicit none
  character(len=5) :: words(2), out(2), short(2), single(1)
  character(len=8) :: accented(1), piece(1)
  integer :: ierr, lengths(2), one_length(1)
  integer(c_int64_t) :: pos64(2), len64(2)

  words = ['hello', 'ab   ']
  ! Element-wise pos and len: 'hello'(1, 3 bytes), 'ab'(0, 1 byte). 0-based, as in C.
  out = '?'
  call tb_substr(words, [1, 0], [3, 1], out, ierr, out_lengths=lengths)
  call check(ierr == TB_OK .and. out(1) == 'ell' .and. out(2) == 'a', 'substr: ' // message())
  call check(all(lengths == [3, 1]), 'out_lengths')
  ! int64 pos and len, a negative pos from the end, a negative len to the end.
  pos64 = [-3, 1]
  len64 = [-1, 5]
  call tb_substr(words, pos64, len64, out, ierr)
  call check(ierr == TB_OK .and. out(1) == 'llo' .and. out(2) == 'b', 'int64, negative pos/len')
  ! A scalar pos and len broadcast over the strings.
  call tb_substr(words, 0, 2, out, ierr)
  call check(ierr == TB_OK .and. out(1) == 'he' .and. out(2) == 'ab', 'scalar pos and len')
  ! One string, two (pos, len): the result has pos's shape.
  call tb_substr(['hello'], [0, 3], [2, 2], out, ierr)
  call check(ierr == TB_OK .and. out(1) == 'he' .and. out(2) == 'lo', 'one string, pos [2]')
  ! lengths keeps trailing blanks: 'ab  ' (4 bytes), its last two are blanks.
  call tb_substr(['ab  '], [-2], [2], single, ierr, lengths=[4], out_lengths=one_length)
  call check(ierr == TB_OK .and. single(1) == '' .and. one_length(1) == 2, 'lengths: ' // &
      message())
  call tb_substr(['ab  '], [-2], [2], single, ierr, out_lengths=one_length)
  call check(ierr == TB_OK .and. single(1) == 'ab' .and. one_length(1) == 2, 'len_trim: ab')
  ! UTF-8 characters: 'h' // e-acute (2 bytes) // 'llo'; characters 1 to 2 are e-acute, 'l'.
  accented(1) = 'h' // achar(195) // achar(169) // 'llo'
  call tb_substr(accented, [1], [2], piece, ierr, unit=TB_UNIT_UTF8_CHAR, out_lengths=one_length)
  call check(ierr == TB_OK .and. piece(1) == achar(195) // achar(169) // 'l' .and. &
      one_length(1) == 3, 'utf8_char units: ' // message())
  call tb_substr(accented, [1], [2], piece, ierr, unit=TB_UNIT_BYTE)
  call check(ierr == TB_OK .and. piece(1) == achar(195) // achar(169), 'byte units')

  ! The policy: pos 6 of 'hello' is out of range.
  out = '?'
  call tb_substr(words, [6, 0], [1, 1], out, ierr, oob=TB_OOB_ERROR)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(out == '?'), 'TB_OOB_ERROR: out unchanged')
  call check(message() == 'tb_substr: pos 6 out of range for string b''hello'' at index 0', &
      'its message: ' // message())
  call tb_substr(words, [6, 0], [1, 1], out, ierr, oob=TB_OOB_DROP, device=tb_device(0, 0), &
      stream=c_null_ptr)
  call check(ierr == TB_OK .and. out(1) == '' .and. out(2) == 'a', 'TB_OOB_DROP: ""')
  call tb_substr(words, [1, 0], [3, 1], out, ierr, device=tb_device(1, 0))
  call check(ierr == TB_OK .and. out(1) == 'ell' .or. ierr == TB_UNAVAILABLE .and. &
      index(message(), 'tb_substr: CUDA requested but unavailable') == 1, 'device cuda:0: ' // &
      message())

  ! What the wrapper refuses, out untouched.
  short = '?'
  call tb_substr(words, [0, 0], [3, 1], short(1:1), ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(short == '?'), 'out of another size')
  call check(message() == 'tb_substr: the result has 2 strings (the broadcast of strings ' // &
      'and pos) but out has 1', 'its message: ' // message())
  call tb_substr(words, [0, 0], [5, 1], short(:)(1:3), ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(short == '?'), 'out too short')
  call check(message() == 'tb_substr: out(1) would hold 5 characters but out has len 3', &
      'its message: ' // message())
  call tb_substr(words, [0, 0], [1, 1], short, ierr, lengths=[5, 6])
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == 'tb_substr: lengths(2) is 6, ' // &
      'outside 0 to len(strings) = 5', 'lengths beyond len: ' // message())
  call tb_substr(words, [0, 0], [1, 1], short, ierr, lengths=[5])
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == 'tb_substr: lengths has 1 ' // &
      'elements but strings has 2', 'lengths of another size: ' // message())
  call tb_substr(words, [0.0_c_float, 0.0_c_float], [1, 1], short, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(short == '?'), 'real pos: ' // message())
  call finish('substr')

contains

  function message() result(text)
    character(len=:), allocatable :: text
    call tb_get_last_error_message(text)
  end function

end program
