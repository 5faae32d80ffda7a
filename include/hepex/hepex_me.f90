! hepex's matrix elements from Fortran: the C API of hepex_me.h through
! ISO_C_BINDING, as a module to compile with the program (module files are
! compiler-specific):  gfortran -c hepex_me.f90; link with -lhepex.
! Strings go with a trailing c_null_char; the optional arrays of
! hepex_me_create_bridge and hepex_me_sequence are c_ptr: c_loc(x) of a TARGET
! array, or c_null_ptr. docs/madevent.md has a worked example.
module hepex_me
  use iso_c_binding
  implicit none
  private :: c_strlen

  integer(c_int), parameter :: HEPEX_ME_OK = 0, HEPEX_ME_INVALID_INPUT = 1, &
                               HEPEX_ME_RUNTIME_ERROR = 2

  interface
    function hepex_me_create(process, precision) bind(c, name="hepex_me_create")
      import :: c_ptr, c_char
      character(kind=c_char), dimension(*), intent(in) :: process, precision
      type(c_ptr) :: hepex_me_create
    end function

    ! param_card: c_loc of a null-terminated path, or c_null_ptr (defaults).
    function hepex_me_create_bridge(process, precision, param_card, max_events) &
        bind(c, name="hepex_me_create_bridge")
      import :: c_ptr, c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: process, precision
      type(c_ptr), value :: param_card
      integer(c_int), value :: max_events
      type(c_ptr) :: hepex_me_create_bridge
    end function

    function hepex_me_particles(handle) bind(c, name="hepex_me_particles")
      import :: c_ptr, c_int
      type(c_ptr), value :: handle
      integer(c_int) :: hepex_me_particles
    end function

    function hepex_me_evaluate(handle, n_events, momenta, out_me) bind(c, name="hepex_me_evaluate")
      import :: c_ptr, c_int, c_double
      type(c_ptr), value :: handle
      integer(c_int), value :: n_events
      real(c_double), dimension(*), intent(in) :: momenta
      real(c_double), dimension(*), intent(out) :: out_me
      integer(c_int) :: hepex_me_evaluate
    end function

    ! gs, rndhel, rndcol, channel, igraph, out_selhel, out_selcol: c_loc or
    ! c_null_ptr, as hepex_me.h says.
    function hepex_me_sequence(handle, n_events, momenta, gs, rndhel, rndcol, channel, igraph, &
                               out_me, out_selhel, out_selcol) bind(c, name="hepex_me_sequence")
      import :: c_ptr, c_int, c_double
      type(c_ptr), value :: handle
      integer(c_int), value :: n_events
      real(c_double), dimension(*), intent(in) :: momenta
      type(c_ptr), value :: gs, rndhel, rndcol, channel, igraph
      real(c_double), dimension(*), intent(out) :: out_me
      type(c_ptr), value :: out_selhel, out_selcol
      integer(c_int) :: hepex_me_sequence
    end function

    function hepex_me_helicities(handle, good, total) bind(c, name="hepex_me_helicities")
      import :: c_ptr, c_int
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: good, total
      integer(c_int) :: hepex_me_helicities
    end function

    subroutine hepex_me_destroy(handle) bind(c, name="hepex_me_destroy")
      import :: c_ptr
      type(c_ptr), value :: handle
    end subroutine

    function hepex_me_last_error_c() bind(c, name="hepex_me_last_error")
      import :: c_ptr
      type(c_ptr) :: hepex_me_last_error_c
    end function

    function c_strlen(s) bind(c, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: c_strlen
    end function
  end interface

contains

  ! The message of the last failed call, as a Fortran string.
  function hepex_me_last_error() result(message)
    character(len=:), allocatable :: message
    character(kind=c_char), pointer :: chars(:)
    type(c_ptr) :: text
    integer :: i, n
    text = hepex_me_last_error_c()
    n = int(c_strlen(text))
    call c_f_pointer(text, chars, [n])
    allocate(character(len=n) :: message)
    do i = 1, n
      message(i:i) = chars(i)
    end do
  end function

end module hepex_me
