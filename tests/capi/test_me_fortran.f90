! The C API from Fortran through the module include/hepex/hepex_me.f90: the
! first reference events of gg_ttg reproduced, MadGraph's helicity and colour
! choices of its selection reference reproduced through hepex_me_sequence,
! and errors reported. Usage: test_me_fortran DATA_DIR
program test_me_fortran
  use hepex_me
  implicit none
  integer, parameter :: nevents = 8, particles = 5, onshell_columns = 2 + 4 * particles + 2
  real(c_double) :: momenta(4 * particles, nevents), me(nevents), reference(nevents)
  real(c_double), target :: gs(nevents), rndhel(nevents), rndcol(nevents)
  integer(c_int), target :: igraph(nevents), selhel(nevents), selcol(nevents)
  integer(c_int), target :: selhel_any(nevents), selcol_any(nevents)
  real(c_double) :: me_any(nevents)
  integer :: ref_selhel(nevents), ref_selcol(nevents)
  real(c_double) :: row(onshell_columns), selection(8), worst
  character(len=4096) :: dir
  character(len=:), allocatable :: card
  character(kind=c_char, len=4097), target :: card_c
  type(c_ptr) :: handle

  call get_command_argument(1, dir)
  call read_rows(trim(dir) // "/madgraph/gg_ttg_onshell_ref.txt", onshell_columns)
  handle = hepex_me_create("gg_ttg" // c_null_char, "double" // c_null_char)
  if (.not. c_associated(handle)) stop 1
  if (hepex_me_evaluate(handle, int(nevents, c_int), momenta, me) /= HEPEX_ME_OK) stop 1
  worst = maxval(abs(me / reference - 1))
  print "(a, es10.3)", "Fortran API gg_ttg: max relative error ", worst
  if (worst > 1d-12) stop 1
  momenta(1, 1) = momenta(1, 1) + 1
  if (hepex_me_evaluate(handle, int(nevents, c_int), momenta, me) /= HEPEX_ME_INVALID_INPUT) stop 1
  if (index(hepex_me_last_error(), "off shell") == 0) stop 1
  call hepex_me_destroy(handle)
  if (c_associated(hepex_me_create("gg_xx" // c_null_char, "double" // c_null_char))) stop 1

  ! The bridge's sequence on the selection reference (events 0..7 are the
  ! on-shell reference's first eight).
  call read_rows(trim(dir) // "/madgraph/gg_ttg_onshell_ref.txt", onshell_columns)
  call read_selection(trim(dir) // "/madgraph/gg_ttg_selection_ref.txt")
  card = trim(dir) // "/madgraph/param_card.dat"
  card_c = card // c_null_char
  handle = hepex_me_create_bridge("gg_ttg" // c_null_char, "double" // c_null_char, &
                                  c_loc(card_c), int(nevents, c_int))
  if (.not. c_associated(handle)) stop 1
  if (hepex_me_sequence(handle, int(nevents, c_int), momenta, c_loc(gs), c_loc(rndhel), &
                        c_loc(rndcol), c_null_ptr, c_loc(igraph), me, c_loc(selhel), &
                        c_loc(selcol)) /= HEPEX_ME_OK) stop 1
  ! MadGraph's CUDACPP chooses no colour for igraph 0 (selcol 0); hepex
  ! chooses among all flows there, as without igraph.
  if (hepex_me_sequence(handle, int(nevents, c_int), momenta, c_loc(gs), c_loc(rndhel), &
                        c_loc(rndcol), c_null_ptr, c_null_ptr, me_any, c_loc(selhel_any), &
                        c_loc(selcol_any)) /= HEPEX_ME_OK) stop 1
  if (count(igraph == 0) == 0 .or. any(igraph == 0 .and. ref_selcol /= 0)) stop 1
  if (any(selcol < 1 .or. selcol > 6)) stop 1
  where (igraph == 0) ref_selcol = selcol_any
  worst = maxval(abs(me / reference - 1))
  print "(a, es10.3, a, 2i3)", "Fortran bridge gg_ttg: max relative error ", worst, &
      ", helicity and colour mismatches", count(selhel /= ref_selhel), count(selcol /= ref_selcol)
  if (worst > 1d-12 .or. any(selhel /= ref_selhel) .or. any(selcol /= ref_selcol)) stop 1
  ! One event more than the bridge was made for: refused, nothing written.
  me = -1
  if (hepex_me_sequence(handle, int(nevents + 1, c_int), momenta, c_null_ptr, c_null_ptr, &
                        c_null_ptr, c_null_ptr, c_null_ptr, me, c_null_ptr, c_null_ptr) &
      /= HEPEX_ME_INVALID_INPUT) stop 1
  if (any(me /= -1) .or. index(hepex_me_last_error(), "max_events") == 0) stop 1
  call hepex_me_destroy(handle)
  print "(a)", "Fortran API: all checks passed"

contains

  ! The first nevents data lines of an on-shell reference: momenta and ME.
  subroutine read_rows(path, columns)
    character(len=*), intent(in) :: path
    integer, intent(in) :: columns
    character(len=4096) :: line
    integer :: unit, k
    open(newunit=unit, file=path, status="old", action="read")
    do k = 1, nevents
      call next_data_line(unit, line)
      read(line, *) row(1:columns)
      momenta(:, k) = row(3:2 + 4 * particles)
      reference(k) = row(3 + 4 * particles)
    end do
    close(unit)
  end subroutine

  ! The first nevents lines of a selection reference: ievt gs rndhel rndcol
  ! igraph ME selhel selcol; reference becomes its ME (at the event's gs).
  subroutine read_selection(path)
    character(len=*), intent(in) :: path
    character(len=4096) :: line
    integer :: unit, k
    open(newunit=unit, file=path, status="old", action="read")
    do k = 1, nevents
      call next_data_line(unit, line)
      read(line, *) selection
      gs(k) = selection(2)
      rndhel(k) = selection(3)
      rndcol(k) = selection(4)
      igraph(k) = nint(selection(5))
      reference(k) = selection(6)
      ref_selhel(k) = nint(selection(7))
      ref_selcol(k) = nint(selection(8))
    end do
    close(unit)
  end subroutine

  ! The next line of `unit` that is not a comment ('#'); stops at the end.
  subroutine next_data_line(unit, line)
    integer, intent(in) :: unit
    character(len=*), intent(out) :: line
    integer :: status
    do
      read(unit, "(a)", iostat=status) line
      if (status /= 0) stop 2
      if (line(1:1) /= "#") return
    end do
  end subroutine

end program
