C     hepex reference data (issue 41): the entry points that
C     standalone_driver.cpp calls beside MadGraph's standalone Fortran of
C     one process (matrix.f of `output standalone`, outside this
C     repository; make_madevent_reference.sh compiles this file in that
C     process's directory, where coupl.inc is).
C
C     The model's parameters from the param card (SLHA) at PATH.
      SUBROUTINE HEPEX_SETUP(PATH)
      IMPLICIT NONE
      CHARACTER*(*) PATH
      CALL SETPARA(PATH)
      END

C     The strong coupling g_s of the next matrix elements, and the
C     couplings that depend on it, as MadGraph's GET_VALUE sets them.
      SUBROUTINE HEPEX_SET_GS(GS)
      IMPLICIT NONE
      DOUBLE PRECISION GS
      INCLUDE 'coupl.inc'
      G = GS
      CALL UPDATE_AS_PARAM()
      END
