! The C API from Fortran through ISO_C_BINDING: the first reference events of
! gg_ttg reproduced, and an error reported. Usage: test_me_fortran DATA_DIR
module hepex_me_binding
  use iso_c_binding
  implicit none
  interface
    function hepex_me_create(process, precision) bind(c, name="hepex_me_create")
      import :: c_ptr, c_char
      character(kind=c_char), dimension(*), intent(in) :: process, precision
      type(c_ptr) :: hepex_me_create
    end function
    function hepex_me_evaluate(handle, n_events, momenta, out_me) bind(c, name="hepex_me_evaluate")
      import :: c_ptr, c_int, c_double
      type(c_ptr), value :: handle
      integer(c_int), value :: n_events
      real(c_double), dimension(*), intent(in) :: momenta
      real(c_double), dimension(*), intent(out) :: out_me
      integer(c_int) :: hepex_me_evaluate
    end function
    subroutine hepex_me_destroy(handle) bind(c, name="hepex_me_destroy")
      import :: c_ptr
      type(c_ptr), value :: handle
    end subroutine
  end interface
end module

program test_me_fortran
  use hepex_me_binding
  implicit none
  integer, parameter :: nevents = 8, particles = 5
  real(c_double) :: momenta(4 * particles, nevents), me(nevents), reference(nevents)
  real(c_double) :: row(2 + 4 * particles + 2), worst
  character(len=4096) :: line, dir
  type(c_ptr) :: handle
  integer :: unit, e, status

  call get_command_argument(1, dir)
  open(newunit=unit, file=trim(dir) // "/madgraph/gg_ttg_onshell_ref.txt", status="old", action="read")
  e = 0
  do while (e < nevents)
    read(unit, "(a)", iostat=status) line
    if (status /= 0) stop 2
    if (line(1:1) == "#") cycle
    e = e + 1
    read(line, *) row
    momenta(:, e) = row(3:2 + 4 * particles)
    reference(e) = row(3 + 4 * particles)
  end do
  close(unit)

  handle = hepex_me_create("gg_ttg" // c_null_char, "double" // c_null_char)
  if (.not. c_associated(handle)) stop 1
  if (hepex_me_evaluate(handle, int(nevents, c_int), momenta, me) /= 0) stop 1
  worst = maxval(abs(me / reference - 1))
  print "(a, es10.3)", "Fortran API gg_ttg: max relative error ", worst
  if (worst > 1d-12) stop 1
  momenta(1, 1) = momenta(1, 1) + 1
  if (hepex_me_evaluate(handle, int(nevents, c_int), momenta, me) /= 1) stop 1
  call hepex_me_destroy(handle)
  if (c_associated(hepex_me_create("gg_xx" // c_null_char, "double" // c_null_char))) stop 1
  print "(a)", "Fortran API: all checks passed"
end program
