C     How MadEvent calls a matrix-element library through CUDACPP's
C     Fortran bridge (madgraph4gpu, auto_dsig1.f and fbridge.inc), here
C     with hepex behind the same entry points (hepex_fbridge.h):
C     g g -> t t~ g g, one page of NB_PAGE events with MadGraph's own gs,
C     random numbers and igraph, checked against MadGraph's own MEs,
C     helicities and colours (tests/data/madgraph, selection_ref files).
C     Build and run (docs/madevent.md):
C       gfortran bridge_example.f -lhepex_fbridge -lhepex ...
C       HEPEX_PARAM_CARD=param_card.dat ./bridge_example DATA_DIR
      PROGRAM BRIDGE_EXAMPLE
      IMPLICIT NONE
      INTEGER NB_PAGE, NEXTERNAL
      PARAMETER (NB_PAGE=32, NEXTERNAL=6)
      INTEGER*8 FBRIDGE_PBRIDGE
      DOUBLE PRECISION P_MULTI(0:3, NEXTERNAL, NB_PAGE)
      DOUBLE PRECISION GS(NB_PAGE), RNDHEL(NB_PAGE), RNDCOL(NB_PAGE)
      DOUBLE PRECISION OUT(NB_PAGE), REF_ME(NB_PAGE)
      INTEGER IGRAPH(NB_PAGE), SELHEL(NB_PAGE), SELCOL(NB_PAGE)
      INTEGER REF_HEL(NB_PAGE), REF_COL(NB_PAGE), CHANID(NB_PAGE)
      INTEGER NGOODHEL, NTOTHEL, IVEC, NBAD
      DOUBLE PRECISION ROW(2 + 4 * NEXTERNAL + 2), WORST, WWORST
      DOUBLE PRECISION WEIGHT(NB_PAGE)
      CHARACTER*4096 DIR
      LOGICAL HELONLY

      CALL GET_COMMAND_ARGUMENT(1, DIR)
      CALL READ_MOMENTA(TRIM(DIR)//'/madgraph/gg_ttgg_onshell_ref.txt',
     &  2 + 4 * NEXTERNAL + 2, NB_PAGE, ROW, P_MULTI, 4 * NEXTERNAL)
      CALL READ_SELECTION(
     &  TRIM(DIR)//'/madgraph/gg_ttgg_selection_ref.txt',
     &  NB_PAGE, GS, RNDHEL, RNDCOL, IGRAPH, REF_ME, REF_HEL, REF_COL)

C     As auto_dsig1.f: create once, a first call that only finds the good
C     helicities, then one call per page.
      CALL FBRIDGECREATE(FBRIDGE_PBRIDGE, NB_PAGE, NEXTERNAL, 4)
      HELONLY = .TRUE.
      CALL FBRIDGESEQUENCE_NOMULTICHANNEL(FBRIDGE_PBRIDGE, P_MULTI, GS,
     &  RNDHEL, RNDCOL, IGRAPH, OUT, SELHEL, SELCOL, HELONLY)
      CALL FBRIDGEGETNGOODHEL(FBRIDGE_PBRIDGE, NGOODHEL, NTOTHEL)
      HELONLY = .FALSE.
      CALL FBRIDGESEQUENCE_NOMULTICHANNEL(FBRIDGE_PBRIDGE, P_MULTI, GS,
     &  RNDHEL, RNDCOL, IGRAPH, OUT, SELHEL, SELCOL, HELONLY)
      WORST = 0
      NBAD = 0
C     MadGraph's choices; where igraph is 0 (no configuration: MadGraph's
C     CUDACPP then chooses no colour) hepex chooses among all 24 flows.
      CALL CHECK_PAGE(NB_PAGE, OUT, SELHEL, SELCOL, REF_ME, REF_HEL,
     &  REF_COL, IGRAPH, WORST, NBAD)
C     MadEvent with single-diagram enhancement: each event's channel id
C     (the diagram of its integration configuration) and the ME times the
C     channel's multichannel weight, MadGraph's own (sde_strategy 2 of
C     genps.f, gg_ttgg_channel_weights_ref.txt; its stot 1.69e8 is that
C     of the run card beside the param card, 4 x 6500^2).
      CALL READ_CHANNELS(
     &  TRIM(DIR)//'/madgraph/gg_ttgg_channel_weights_ref.txt',
     &  NB_PAGE, CHANID, WEIGHT)
      CALL FBRIDGESEQUENCE(FBRIDGE_PBRIDGE, P_MULTI, GS, RNDHEL, RNDCOL,
     &  CHANID, IGRAPH, OUT, SELHEL, SELCOL, HELONLY)
      WWORST = 0
      DO IVEC = 1, NB_PAGE
        OUT(IVEC) = OUT(IVEC) / WEIGHT(IVEC)
        WWORST = MAX(WWORST, ABS(OUT(IVEC) / REF_ME(IVEC) - 1))
      END DO
      CALL CHECK_PAGE(NB_PAGE, OUT, SELHEL, SELCOL, REF_ME, REF_HEL,
     &  REF_COL, IGRAPH, WORST, NBAD)
      CALL FBRIDGEDELETE(FBRIDGE_PBRIDGE)
      WRITE(*,'(A,I3,A,I4,A,ES10.3,A,ES10.3,A,I3)')
     &  'bridge gg_ttgg: good hel ', NGOODHEL, ' of', NTOTHEL,
     &  ', max rel. ME error ', WORST, ' (with channel weights ',
     &  WWORST, '), choices differing from MadGraph ', NBAD
      IF (WORST.GT.1D-12 .OR. NBAD.NE.0 .OR. NGOODHEL.NE.64) STOP 1
      END

C     One page against the reference: the ME, the helicity, and the colour
C     (MadGraph's where igraph is not 0, else any of the 24 flows).
      SUBROUTINE CHECK_PAGE(NEVT, OUT, SELHEL, SELCOL, REF_ME, REF_HEL,
     &  REF_COL, IGRAPH, WORST, NBAD)
      IMPLICIT NONE
      INTEGER NEVT, SELHEL(NEVT), SELCOL(NEVT), REF_HEL(NEVT)
      INTEGER REF_COL(NEVT), IGRAPH(NEVT), NBAD, IVEC
      DOUBLE PRECISION OUT(NEVT), REF_ME(NEVT), WORST
      DO IVEC = 1, NEVT
        WORST = MAX(WORST, ABS(OUT(IVEC) / REF_ME(IVEC) - 1))
        IF (SELHEL(IVEC).NE.REF_HEL(IVEC)) NBAD = NBAD + 1
        IF (IGRAPH(IVEC).NE.0) THEN
          IF (SELCOL(IVEC).NE.REF_COL(IVEC)) NBAD = NBAD + 1
        ELSE IF (SELCOL(IVEC).LT.1 .OR. SELCOL(IVEC).GT.24) THEN
          NBAD = NBAD + 1
        END IF
      END DO
      END

C     The first channel with stot 1.69e8 of each of the first NEVT events
C     of a channel-weight reference (ievt stot tmin channel weight).
      SUBROUTINE READ_CHANNELS(PATH, NEVT, CHANID, WEIGHT)
      IMPLICIT NONE
      CHARACTER*(*) PATH
      INTEGER NEVT, CHANID(NEVT), K, STATUS, IEVT, ID
      DOUBLE PRECISION WEIGHT(NEVT), STOT, TMIN, W
      CHARACTER*4096 LINE
      OPEN(UNIT=23, FILE=PATH, STATUS='OLD', ACTION='READ')
      K = 0
      DO WHILE (K.LT.NEVT)
        READ(23, '(A)', IOSTAT=STATUS) LINE
        IF (STATUS.NE.0) STOP 2
        IF (LINE(1:1).NE.'#') THEN
          READ(LINE, *) IEVT, STOT, TMIN, ID, W
          IF (IEVT.EQ.K .AND. STOT.EQ.1.69D8) THEN
            K = K + 1
            CHANID(K) = ID
            WEIGHT(K) = W
          END IF
        END IF
      END DO
      CLOSE(23)
      END

C     The momenta (columns 3 .. 2+N) of the first NEVT data lines of an
C     on-shell reference (NCOL columns: ievt sqrt_s momenta ME ME0).
      SUBROUTINE READ_MOMENTA(PATH, NCOL, NEVT, ROW, OUT, N)
      IMPLICIT NONE
      CHARACTER*(*) PATH
      INTEGER NCOL, NEVT, N, K, STATUS
      DOUBLE PRECISION ROW(NCOL), OUT(N, NEVT)
      CHARACTER*4096 LINE
      OPEN(UNIT=21, FILE=PATH, STATUS='OLD', ACTION='READ')
      K = 0
      DO WHILE (K.LT.NEVT)
        READ(21, '(A)', IOSTAT=STATUS) LINE
        IF (STATUS.NE.0) STOP 2
        IF (LINE(1:1).NE.'#') THEN
          K = K + 1
          READ(LINE, *) ROW
          OUT(:, K) = ROW(3:2 + N)
        END IF
      END DO
      CLOSE(21)
      END

C     ievt gs rndhel rndcol igraph ME selhel selcol, the first NEVT lines.
      SUBROUTINE READ_SELECTION(PATH, NEVT, GS, RNDHEL, RNDCOL, IGRAPH,
     &  ME, HEL, COL)
      IMPLICIT NONE
      CHARACTER*(*) PATH
      INTEGER NEVT, IGRAPH(NEVT), HEL(NEVT), COL(NEVT), K, STATUS
      DOUBLE PRECISION GS(NEVT), RNDHEL(NEVT), RNDCOL(NEVT), ME(NEVT)
      DOUBLE PRECISION SEL(8)
      CHARACTER*4096 LINE
      OPEN(UNIT=22, FILE=PATH, STATUS='OLD', ACTION='READ')
      K = 0
      DO WHILE (K.LT.NEVT)
        READ(22, '(A)', IOSTAT=STATUS) LINE
        IF (STATUS.NE.0) STOP 2
        IF (LINE(1:1).NE.'#') THEN
          K = K + 1
          READ(LINE, *) SEL
          GS(K) = SEL(2)
          RNDHEL(K) = SEL(3)
          RNDCOL(K) = SEL(4)
          IGRAPH(K) = NINT(SEL(5))
          ME(K) = SEL(6)
          HEL(K) = NINT(SEL(7))
          COL(K) = NINT(SEL(8))
        END IF
      END DO
      CLOSE(22)
      END
