"""The written families in halves: study halves whose findings are read while the rules
change, and blind halves scored only in totals (docs/claims.md, "The written families split").

Usage::

    python -m tools.claims_corpus.split             per-kind P/R on each half, end to end
    python -m tools.claims_corpus.split --study     and every false alarm and miss of a study half
    python -m tools.claims_corpus.split --by-atom   true and false findings by kind and atom
                                                    kind, study halves beside blind ones

A study finding is printed one a line: the case, fp/fn, the kind, the atom as the summary
wrote it, and why (the entity, what the originals say, the atom's normalised value).
Nothing about a blind family's cases is ever printed: ``--by-atom`` gives the blind halves
as totals by kind and atom kind, to tell a rule's precision where it was not read from
where it was (docs/claims.md, "Round 43").
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any, Final

from tools.claims_corpus.score import KINDS, Score, score_table
from tools.claims_corpus.written import Family, load_families
from tools.claims_heldout import (
    SUMMARY_FRAME,
    case_checkpoint,
    found_of,
    match_case,
    on_derived,
    placed,
)

#: Each batch of written families, split when it was added (before any rule changed for
#: it) by name in alphabetical order, taking every other one: A, A2 to A39 are read, B2
#: to B39 are not; B was blind through round 21 and is read from round 22
#: (docs/claims.md, "Rounds 22 onward"), B25 from round 55 (its lot ids), B9 from round 56
#: (its dropped false alarms, 17 of the blind halves' 72), B22 from round 68 (its false
#: contradictions, 23 of the blind halves' 96).
HALVES: Final[dict[str, tuple[str, ...]]] = {
    "A (study)": ("campaigns", "crewops", "grading", "qualitycontrol", "saas", "telecom"),
    "B (study from round 22)": (
        "contracts",
        "fooddelivery",
        "property",
        "recruiting",
        "smarthome",
        "utilities",
    ),
    "A2 (study)": ("dnsops", "mlops", "taxfiling"),
    "B2 (blind)": ("fleetmaint", "procurement", "ticketing"),
    "A3 (study)": ("appstore", "mortgage", "railops"),
    "B3 (blind)": ("dbadmin", "publishing", "solarfarm"),
    "A4 (study)": ("construction", "ediscovery", "monthclose"),
    "B4 (blind)": ("datacenter", "gamestudio", "retailpos"),
    "A5 (study)": ("agritech", "biotechlab", "mediastreaming"),
    "B5 (blind)": ("aviationmro", "cityservices", "nonprofitgrants"),
    "A6 (study)": ("airportops", "clinicaltrials", "warehouse"),
    "B6 (blind)": ("chemplant", "parking", "wastecollection"),
    "A7 (study)": ("cardops", "pharmaqa", "shipyard"),
    "B7 (blind)": ("learningops", "satops", "venueops"),
    "A8 (study)": ("etlpipeline", "insuranceclaims", "payrollrun"),
    "B8 (blind)": ("hotelbooking", "k8sops", "socincident"),
    "A9 (study)": ("cicdrelease", "dentalclinic", "lendingkyc"),
    "B9 (study from round 56)": ("customsbroker", "energytrading", "vetclinic"),
    "A10 (study)": ("conveyancing", "libraryops", "telehealth"),
    "B10 (blind)": ("esportsops", "marinefreight", "waterutility"),
    "A11 (study)": ("airlinerevenue", "cloudbilling", "minesite"),
    "B11 (blind)": ("broadcastops", "ledgerrecon", "schooladmin"),
    "A12 (study)": ("benefitsadmin", "festivaltickets", "plantnursery"),
    "B12 (blind)": ("courtclerk", "hvacservice", "telematics"),
    "A13 (study)": ("mealkits",),
    "B13 (blind)": ("qclab",),
    "A14 (study)": ("bloodbank", "carrental", "cdnops", "patentfiling"),
    "B14 (blind)": ("brokerage", "catering", "dronesurvey", "visaoffice"),
    "A15 (study)": ("crmbilling", "fireinspection", "mobilecarrier", "seedbank"),
    "B15 (blind)": ("elevatorservice", "kitchenmfg", "museumloans", "sportsleague"),
    "A16 (study)": ("apiplatform", "fishfarm", "laundryplant", "tollroads"),
    "B16 (blind)": ("courtreporting", "grantsportal", "pestcontrol", "weddingvenue"),
    "A17 (study)": ("bridgeinspect", "charterflights", "dialysis", "skiresort"),
    "B17 (blind)": ("callcenter", "dataprivacy", "printshop", "vineyard"),
    "A18 (study)": ("backupvault", "cruiseline", "pharmacyfill", "searchindex"),
    "B18 (blind)": ("certauthority", "movingco", "radiology", "wiretransfers"),
    "A19 (study)": ("airlinecargo", "coldchain", "featureflags", "iotfirmware"),
    "B19 (blind)": ("auctionhouse", "evcharging", "fraudops", "rideshare"),
    "A20 (study)": ("esignature", "gymchain", "marinaops", "translationagency"),
    "B20 (blind)": ("gpucluster", "hoadues", "parcellockers", "vaccineclinic"),
    "A21 (study)": ("crowdfunding", "observability", "portterminal", "secretsrotation"),
    "B21 (blind)": ("homehealth", "pipelineintegrity", "schemamigrations", "warrantyrepairs"),
    "A22 (study)": ("accountspayable", "datawarehouse", "identityaccess", "subscriptionbox"),
    "B22 (study from round 68)": (
        "airquality",
        "emergencydispatch",
        "medicalbilling",
        "travelexpenses",
    ),
    "A23 (study)": ("bakerychain", "gridoperations", "legalbilling", "podcasthosting"),
    "B23 (blind)": ("bikeshare", "hospitalbeds", "networkfirewall", "tenantscreening"),
    "A24 (study)": ("conferenceops", "elearningplatform", "kubernetesupgrade", "watertreatment"),
    "B24 (blind)": ("cryptocustody", "homeinsurance", "mobilerelease", "wineexport"),
    "A25 (study)": ("buildingpermits", "ferryline", "opticalretail", "textilemill"),
    "B25 (study from round 55)": (
        "carbonregistry",
        "loyaltyprogram",
        "semiconductorfab",
        "zoooperations",
    ),
    "A26 (study)": ("campgrounds", "dairyprocessing", "launchrange", "papermill"),
    "B26 (blind)": ("cinemachain", "fertilityclinic", "musicroyalties", "tutoringmarket"),
    "A27 (study)": ("audiology", "funeralhome", "scrapmetal", "transitagency"),
    "B27 (blind)": ("electionops", "medialicensing", "sportsbook", "winterroads"),
    "A28 (study)": ("animalshelter", "dataannotation", "grainelevator", "mdmfleet"),
    "B28 (blind)": ("cementplant", "equipmentrental", "lotteryops", "pensionfund"),
    "A29 (study)": ("autorepair", "coworkingspace", "nursinghome", "sawmill"),
    "B29 (blind)": ("brewery", "hydroplant", "pharmacovigilance", "studentloans"),
    "A30 (study)": ("containerregistry", "examproctoring", "offshorewind", "printfarm"),
    "B30 (blind)": ("dnsregistrar", "feedmill", "orchard", "surveypanel"),
    "A31 (study)": ("clinicallab", "filmproduction", "hydroponics", "petinsurance"),
    "B31 (blind)": ("edipartner", "housekeeping", "mailroom", "towing"),
    "A32 (study)": ("airambulance", "dentallab", "kennels", "solarinstall"),
    "B32 (blind)": ("bottling", "irrigationdistrict", "propertytax", "vendingfleet"),
    "A33 (study)": ("atmnetwork", "chargebacks", "quarry", "storageunits"),
    "B33 (blind)": ("beekeeping", "fuelcards", "sewerinspection", "timesheets"),
    "A34 (study)": ("aquarium", "emailsecurity", "hospitalpharmacy", "railfreight"),
    "B34 (blind)": ("dataroom", "golfcourse", "observatory", "schoolbus"),
    "A35 (study)": ("cashlogistics", "drillingrig", "glassworks", "meteorology"),
    "B35 (blind)": ("casinoops", "ewaste", "harborpilots", "peerreview"),
    "A36 (study)": ("avalanchecontrol", "dronedelivery", "organtransplant", "recordpressing"),
    "B36 (blind)": ("cranehire", "foundry", "racetiming", "wildfiredispatch"),
    "A37 (study)": ("citywater", "icerink", "pawnshop", "tunnelboring"),
    "B37 (blind)": ("escaperooms", "locksmith", "theatreprod", "wastewaterlab"),
    "A38 (study)": ("carwash", "hotairballoons", "newsroom", "physiotherapy"),
    "B38 (blind)": ("gemlab", "mushroomfarm", "orchestra", "ropeways"),
    "A39 (study)": ("bikecourier", "distillery", "geothermal", "radiotherapy"),
    "B39 (blind)": ("chocolatefactory", "fibernetwork", "lighthouse", "sailingschool"),
}
#: Every family whose cases and findings may be read while the rules change.
STUDY: Final = tuple(name for label, names in HALVES.items() if "study" in label for name in names)
BLIND: Final = tuple(name for label, names in HALVES.items() if "blind" in label for name in names)


def halves(families: Sequence[Family]) -> dict[str, list[Family]]:
    """``families`` by half (:data:`HALVES`); a family in none is refused."""
    unknown = {f.name for f in families} - set(STUDY) - set(BLIND)
    if unknown:
        raise ValueError(f"written families in no half: {sorted(unknown)}")
    return {label: [f for f in families if f.name in names] for label, names in HALVES.items()}


def _findings(case: Mapping[str, Any]) -> list[Any]:
    import foldctl
    from foldctl.claims.record import check_graph

    graph = foldctl.open(case_checkpoint(case)).graph
    return [s.finding for s in check_graph(graph) if s.frame == SUMMARY_FRAME]


#: True and false findings (of the kinds scored) by (kind, atom kind).
Ledger = dict[tuple[str, str], list[int]]


def ledger(families: Sequence[Family]) -> Ledger:
    """Every scored finding on ``families``, counted true or false by its kind and its
    atom's kind (``status``, ``money``, ``duration``...; ``error`` for ``dropped``): how
    precise each part of the rules is, in totals that name no case."""
    counted: Ledger = {}
    for family in families:
        for case in family.cases:
            raw = _findings(case)
            found = placed(case["summary"], [found_of(f) for f in raw])
            _, misses = match_case(case, found, family.name)
            false = {(m.kind, m.text) for m in misses if m.what != "fn"}
            for f, placed_f in zip(raw, found, strict=True):
                if f.kind in KINDS:
                    row = counted.setdefault((f.kind, f.atom_kind), [0, 0])
                    row[(f.kind, placed_f.atom) in false] += 1
    return counted


def ledger_table(study: Ledger, blind: Ledger) -> str:
    """Study and blind ledgers side by side: true/false and precision per row."""

    def cell(row: list[int] | None) -> str:
        true, false = row or (0, 0)
        share = f"{true / (true + false):.2f}" if true + false else "-"
        return f"{true:>4}/{false:<4} {share:>4}"

    lines = [f"{'kind':<14}{'atom kind':<12}{'study halves':>16}{'blind halves':>16}"]
    for key in sorted(set(study) | set(blind)):
        lines.append(
            f"{key[0]:<14}{key[1]:<12}{cell(study.get(key)):>16}{cell(blind.get(key)):>16}"
        )
    return "\n".join(lines)


def score_half(families: Sequence[Family], *, study: bool = False) -> tuple[dict[str, Score], int]:
    """Per kind tp/fp/fn over the half, end to end, and how many quiet summaries drew a
    scored finding; with ``study``, every false alarm and miss printed with its reason."""
    scores = {kind: Score() for kind in KINDS}
    flagged = 0
    for family in families:
        for case in family.cases:
            raw = _findings(case)
            found = placed(case["summary"], [found_of(f) for f in raw])
            counted, misses = match_case(case, found, family.name)
            for kind, s in counted.items():
                scores[kind].tp += s.tp
                scores[kind].fp += s.fp
                scores[kind].fn += s.fn
            if not case["expected"] and any(f.kind in KINDS for f in found):
                flagged += 1
            if not study:
                continue
            fps = {(m.kind, m.text) for m in misses if m.what != "fn"}
            for f, ff in zip(raw, found, strict=True):
                if (f.kind, ff.atom) in fps or (
                    f.kind == "unverified" and not on_derived(case, ff)
                ):
                    why = f"entity={f.entity} expected={f.expected} norm={f.normalised}"
                    sentence = " ".join((f.sentence or "").split())[:160]
                    print(f"FP {case['id']} {f.kind} [{f.atom_kind}] {f.atom!r} {why} | {sentence}")
            for m in misses:
                if m.what == "fn":
                    print(f"FN {case['id']} {m.kind} {m.text!r}")
    return scores, flagged


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument(
        "--study", action="store_true", help="print the study halves' false alarms and misses"
    )
    parser.add_argument(
        "--by-atom",
        action="store_true",
        help="true and false findings by kind and atom kind, study halves beside blind ones",
    )
    args = parser.parse_args(argv)
    if args.by_atom:
        split = halves(load_families())
        read = [f for label, half in split.items() if "study" in label for f in half]
        unread = [f for label, half in split.items() if "blind" in label for f in half]
        print(ledger_table(ledger(read), ledger(unread)))
        return
    for label, half in halves(load_families()).items():
        scores, flagged = score_half(half, study=args.study and "study" in label)
        quiet = sum(1 for f in half for c in f.cases if not c["expected"])
        print(f"{label}: {sum(len(f.cases) for f in half)} cases")
        print(score_table(scores))
        print(f"quiet summaries with a finding: {flagged} of {quiet}")


if __name__ == "__main__":
    main()
