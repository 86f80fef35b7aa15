! What the Fortran test programs share: a check that records a failure and goes on, so one run
! reports every failed check, and the end that fails the program if any did.
module tensorbuf_test_support
  implicit none
  private
  public :: check, finish
  integer, save :: failures = 0

contains

  subroutine check(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (.not. condition) then
      print '(a)', 'FAILED: ' // what
      failures = failures + 1
    end if
  end subroutine

  ! Nonzero exit status after any failed check, else prints "<name>: ok".
  subroutine finish(name)
    character(len=*), intent(in) :: name
    if (failures > 0) error stop 1
    print '(a)', name // ': ok'
  end subroutine

end module
