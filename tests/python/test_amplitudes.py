"""hepex.MatrixElement against MadGraph's reference events (CUDACPP's own
MEs, helicity and colour choices: tests/data/madgraph)."""
import numpy as np
import pytest

import hepex
from conftest import DATA

PROCESSES = {"gg_tt": 4, "gg_ttg": 5, "gg_ttgg": 6}


def madgraph_file(name):
    """tests/data/madgraph/NAME, or pp_tt012j/NAME for pp_tt012j.mad's subprocesses,
    or pp_tt3j/NAME for the 3-jet ones."""
    for folder in ("", "pp_tt012j", "pp_tt3j"):
        path = DATA / "madgraph" / folder / name
        if path.exists():
            return path
    return DATA / "madgraph" / "pp_tt012j" / name


def read(name):
    return np.array([[float(x) for x in line.split()] for line in open(madgraph_file(name))
                     if line.strip() and not line.startswith("#")])


@pytest.mark.parametrize("process", PROCESSES)
def test_onshell_reference(process):
    particles = PROCESSES[process]
    rows = read(f"{process}_onshell_ref.txt")
    momenta = rows[:, 2:2 + 4 * particles].reshape(-1, particles, 4)
    me = hepex.MatrixElement(process).evaluate(momenta)
    relative = np.abs(me / rows[:, 2 + 4 * particles] - 1)
    assert relative.max() < 1e-12, relative.max()  # the C++ tests' bound
    mixed = hepex.MatrixElement(process, precision="mixed").evaluate(momenta)
    assert np.abs(mixed / rows[:, 2 + 4 * particles] - 1).max() < 1e-6


@pytest.mark.parametrize("process", ["gg_tt", "gg_ttg"])
def test_helicity_and_colour_choices(process):
    particles = PROCESSES[process]
    events = read(f"{process}_onshell_ref.txt")
    sel = read(f"{process}_selection_ref.txt")
    idx = sel[:, 0].astype(int)
    momenta = events[idx, 2:2 + 4 * particles].reshape(-1, particles, 4)
    r = hepex.MatrixElement(process).evaluate(momenta, gs=sel[:, 1], rndhel=sel[:, 2],
                                             rndcol=sel[:, 3], igraph=sel[:, 4].astype(np.int32))
    assert np.abs(r.me / sel[:, 5] - 1).max() < 1e-12
    assert r.selhel.tolist() == sel[:, 6].astype(int).tolist()
    # MadGraph's CUDACPP chooses no colour for igraph 0 (selcol 0); hepex
    # chooses among all flows there, as without igraph.
    any_flow = hepex.MatrixElement(process).evaluate(momenta, gs=sel[:, 1], rndhel=sel[:, 2],
                                                     rndcol=sel[:, 3])
    zero = sel[:, 4] == 0
    assert zero.any() and (sel[zero, 7] == 0).all()
    expected = np.where(zero, any_flow.selcol, sel[:, 7].astype(int))
    assert r.selcol.tolist() == expected.tolist()
    assert (r.selcol >= 1).all()



@pytest.mark.parametrize("process", ["gg_tt", "gg_ttg"])
def test_channel_weights_are_madgraphs(process):
    """With MadEvent's channel ids the ME is times MadGraph's multichannel
    weight (sde_strategy 2, from MadGraph's Fortran: the reference's rows of
    stot 1.69e8, the run card's 4 x 6500^2)."""
    particles = PROCESSES[process]
    events = read(f"{process}_onshell_ref.txt")[:64]
    w = read(f"{process}_channel_weights_ref.txt")
    w = w[(w[:, 1] == 1.69e8) & (w[:, 0] < 64)][::3]
    assert (w[:, 0] == np.arange(64)).all()
    momenta = events[:, 2:2 + 4 * particles].reshape(-1, particles, 4)
    me = hepex.MatrixElement(process, run_card=DATA / "madgraph" / "run_card.dat")
    assert me.diagrams == {"gg_tt": 3, "gg_ttg": 16}[process]
    plain = me.evaluate(momenta)
    weighted = me.evaluate(momenta, channel=w[:, 3].astype(np.int32))
    assert np.abs(weighted / plain / w[:, 4] - 1).max() < 1e-14
    with pytest.raises(hepex.InvalidInputError, match="channel = -2"):
        me.evaluate(momenta, channel=np.full(64, -2, dtype=np.int32))

def test_bad_momenta_and_inputs():
    me = hepex.MatrixElement("gg_tt")
    rows = read("gg_tt_onshell_ref.txt")
    momenta = rows[:4, 2:18].reshape(-1, 4, 4).copy()
    with pytest.raises(hepex.InvalidInputError, match=r"shape \(events, 4, 4\) for gg_tt"):
        me.evaluate(momenta.reshape(4, 16))
    momenta[2, 1, 3] += 1.0
    with pytest.raises(hepex.InvalidInputError, match="event 2: "):
        me.evaluate(momenta)
    with pytest.raises(hepex.InvalidInputError, match="rndhel = 1 is not in"):
        me.evaluate(rows[:4, 2:18].reshape(-1, 4, 4), rndhel=np.array([0.5, 1.0, 0.2, 0.1]))
    with pytest.raises(hepex.InvalidInputError, match="gg_tx"):
        hepex.MatrixElement("gg_tx")


def test_processes_are_the_registrys():
    """hepex.processes() against MadGraph's own files: the legs of the helicity
    table's header, its rows, the colour matrix's size, and a MatrixElement of
    each small one with those particles; an unknown name lists them all."""
    names = {"g": 21, "t": 6, "t~": -6, "u": 2, "u~": -2, "d": 1, "d~": -1, "c": 4, "c~": -4}
    listed = hepex.processes()
    assert [p["name"] for p in listed][:4] == ["gg_tt", "gg_ttg", "gg_ttgg", "gg_ttggg"]
    # every subprocess of pp_tt012j.mad with quarks (its gluon ones are the first four),
    # and the four 3-jet ones with one light quark pair
    assert len(listed) == 4 + 15 + 4 and "uux_ttxgg" in [p["name"] for p in listed]
    assert "uux_ttxggg" in [p["name"] for p in listed]
    for p in listed:
        header = open(madgraph_file(f"{p['name']}_helicities.txt")).readline()
        madgraph = header.split(" for ", 1)[1].split(",", 1)[0]
        assert p["madgraph"] == madgraph
        assert p["pdg"] == [names[w] for w in madgraph.split() if w != ">"]
        assert p["particles"] == len(p["pdg"])
        assert p["helicity_combinations"] == len(read(f"{p['name']}_helicities.txt"))
        assert p["colour_flows"] == len(read(f"{p['name']}_colormatrix.txt")) - 1
        assert p["configurations"] == len(read(f"{p['name']}_icolamp.txt"))
        # MadEvent may call it: not the 3-jet ones, whose tables are MadGraph 3.1.1's
        assert p["madevent"] == (madgraph_file(f"{p['name']}_helicities.txt").parent.name != "pp_tt3j")
        if p["name"] in PROCESSES:
            me = hepex.MatrixElement(p["name"])
            assert (me.particles, me.diagrams, me.me_units) == (
                p["particles"], p["diagrams"], p["me_units"])
    with pytest.raises(hepex.InvalidInputError) as error:
        hepex.MatrixElement("uux_ttxh")
    for p in listed:
        assert p["name"] in str(error.value)
    assert "gg_ttx = gg_tt" in str(error.value)  # MadGraph's names of the gluon processes


def test_quark_subprocesses_reproduce_madgraph():
    """pp_tt012j.mad's subprocesses with quarks (the colour-flow family) and a
    3-jet one from Python, on MadGraph's on-shell reference events: within
    1e-12 in double (measured <= 2.5e-13, test_colour_flow.cpp)."""
    for name, particles in (("uux_ttx", 4), ("gu_ttxu", 5), ("gu_ttxgu", 6), ("uu_ttxuu", 6),
                            ("gg_ttxguux", 7)):
        rows = read(f"{name}_onshell_ref.txt")[:64]
        momenta = rows[:, 2:2 + 4 * particles].reshape(-1, particles, 4)
        me = hepex.MatrixElement(name)
        assert me.particles == particles
        got = me.evaluate(momenta)
        assert np.max(np.abs(got / rows[:, -1] - 1)) < 1e-12, name
