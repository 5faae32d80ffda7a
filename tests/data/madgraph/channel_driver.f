C     MadGraph's multichannel weights of sde_strategy 2, for the reference
C     data of make_channel_reference.sh: compiled with MadGraph's own
C     get_channel_cut (genps.f) and the process's configs.inc / props.inc
C     in a work directory outside the repository. Reads events
C     "ievt sqrt_s E1 px1 py1 pz1 ..." (P_onshell_ref.txt) on standard
C     input and, for two run settings (stot, tmin_for_channel) and three
C     configurations per event, writes
C       ievt stot tmin diagram weight
C     with weight = get_channel_cut(p, config) / sum over all configs, as
C     matrix1.f forms AMP2(channel) / XTOT for sde_strat 2, and diagram the
C     configuration's CONFSUB (the channel id MadEvent passes).
      PROGRAM CHANNEL_DRIVER
      IMPLICIT NONE
      INCLUDE 'nexternal.inc'
      INCLUDE 'maxconfigs.inc'
      INCLUDE 'vector.inc'
      INCLUDE 'coupl.inc'
      DOUBLE PRECISION STOT, M1, M2
      COMMON/TO_STOT/STOT, M1, M2
      DOUBLE PRECISION TMIN_FOR_CHANNEL
      INTEGER SDE_STRAT
      COMMON/TO_CHANNEL_STRAT/TMIN_FOR_CHANNEL, SDE_STRAT
      INTEGER MAPCONFIG(0:LMAXCONFIGS), THIS_CONFIG
      COMMON/TO_MCONFIGS/MAPCONFIG, THIS_CONFIG
      INTEGER I, CONFSUB(1, LMAXCONFIGS)
      INCLUDE 'config_subproc_map.inc'
      DOUBLE PRECISION GET_CHANNEL_CUT
      EXTERNAL GET_CHANNEL_CUT
      DOUBLE PRECISION P(0:3, NEXTERNAL), WCFG(LMAXCONFIGS), WSUM, SQRTS
      DOUBLE PRECISION SETTINGS(2, 2)
      INTEGER IEVT, J, K, S, CONFIG, IOS
      DATA SETTINGS/1.69D8, -1D0, 2.25D6, -0.3D0/
      MDL_MT = 173D0
      MDL_WT = 1.4915D0
      SDE_STRAT = 2
      M1 = 0D0
      M2 = 0D0
      DO WHILE (.TRUE.)
        READ (*, *, IOSTAT=IOS) IEVT, SQRTS, ((P(J, I), J=0, 3),
     &    I=1, NEXTERNAL)
        IF (IOS .NE. 0) EXIT
        DO S = 1, 2
          STOT = SETTINGS(1, S)
          TMIN_FOR_CHANNEL = SETTINGS(2, S)
          WSUM = 0D0
          DO K = 1, MAPCONFIG(0)
            WCFG(K) = GET_CHANNEL_CUT(P, K)
            WSUM = WSUM + WCFG(K)
          ENDDO
          DO I = 0, 2
            CONFIG = MOD(IEVT * 7 + I * 31 + S, MAPCONFIG(0)) + 1
            WRITE (*, '(I5,1X,ES10.3,1X,F5.2,1X,I5,1X,ES24.16)') IEVT,
     &        STOT, TMIN_FOR_CHANNEL, CONFSUB(1, CONFIG),
     &        WCFG(CONFIG) / WSUM
          ENDDO
        ENDDO
      ENDDO
      END

      DOUBLE PRECISION FUNCTION DOT(P1, P2)
      IMPLICIT NONE
      DOUBLE PRECISION P1(0:3), P2(0:3)
      DOT = P1(0)*P2(0) - P1(1)*P2(1) - P1(2)*P2(2) - P1(3)*P2(3)
      END
