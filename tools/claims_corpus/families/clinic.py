"""Health: a patient record, a lab panel (a table with units and reference ranges), a
referral pending review at priority P2, and an appointment whose first slot was taken
(HTTP 409, "fully booked") before another was confirmed, with times and their zone."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap


def story(rng: random.Random) -> Story:
    first, last = K.person(rng)
    doctor_first, doctor_last = rng.choice(
        [(f, la) for f in K.FIRST_NAMES for la in K.LAST_NAMES if (f, la) != (first, last)]
    )
    mrn = f"MRN-{rng.randint(10, 99):02d}{rng.randint(10000, 99999)}"
    referral = f"REF-{rng.randint(20000, 29999)}"
    appointment = f"APT-{rng.randint(90000, 99999)}"
    glucose = rng.randint(150, 240)
    creatinine = rng.choice((1.42, 1.31, 1.58))
    potassium = rng.choice((4.1, 3.9, 4.6))
    y, m, d = 2026, rng.randint(9, 11), rng.randint(2, 12)
    taken_h, booked_h = rng.choice(((10, 14), (9, 15), (11, 16)))
    taken = f"{taken_h}:30"
    specialty = rng.choice(("endocrinology", "nephrology"))
    messages = [
        K.call("get_patient", {"mrn": mrn}),
        K.result(
            "get_patient",
            f"patient: {first} {last}\nMRN: {mrn}\nDOB: 1987-03-09\n"
            f"primary care: Dr. {doctor_first} {doctor_last}\nallergies: penicillin",
        ),
        K.call("get_lab_results", {"mrn": mrn, "panel": "BMP"}),
        K.result(
            "get_lab_results",
            K.table(
                ("TEST", "RESULT", "UNITS", "REF RANGE", "FLAG", "COLLECTED"),
                (
                    ("Glucose", glucose, "mg/dL", "70–99", "H", f"{K.iso(y, m, d)} 07:40"),
                    ("Potassium", potassium, "mmol/L", "3.5–5.1", "", f"{K.iso(y, m, d)} 07:40"),
                    (
                        "Creatinine",
                        creatinine,
                        "mg/dL",
                        "0.59–1.04",
                        "H",
                        f"{K.iso(y, m, d)} 07:40",
                    ),
                ),
            ),
        ),
        K.call("create_referral", {"mrn": mrn, "specialty": specialty, "priority": "P2"}),
        K.result(
            "create_referral",
            {
                "referral_id": referral,
                "status": "pending_review",
                "priority": "P2",
                "specialty": specialty,
            },
        ),
        K.call(
            "book_appointment",
            {
                "mrn": mrn,
                "slot": f"{K.iso(y, m, d + 12)}T{taken_h}:30:00-04:00",
                "provider": f"Dr. {doctor_first} {doctor_last}",
            },
        ),
        K.result(
            "book_appointment",
            'HTTP 409 Conflict\n{"error": "slot_taken", "message": "the '
            f'{taken} slot is fully booked"}}',
        ),
        K.call(
            "book_appointment",
            {
                "mrn": mrn,
                "slot": f"{K.iso(y, m, d + 12)}T{booked_h}:00:00-04:00",
                "provider": f"Dr. {doctor_first} {doctor_last}",
            },
        ),
        K.result(
            "book_appointment",
            {
                "appointment_id": appointment,
                "status": "confirmed",
                "start": f"{K.iso(y, m, d + 12)}T{booked_h}:00:00-04:00",
                "provider": f"Dr. {doctor_first} {doctor_last}",
            },
        ),
    ]
    month = K.MONTHS[m - 1]

    def c_patient(r: random.Random) -> str:
        return r.choice(
            (
                f"patient {mrn} ({first} {last}) is allergic to penicillin",
                f"{first} {last}, {mrn}, born 9 March 1987",
                f"{mrn} belongs to {first} {last}, whose primary care doctor is Dr. {doctor_last}",
            )
        )

    def c_labs(r: random.Random) -> str:
        return r.choice(
            (
                f"glucose was high at {glucose} mg/dL and creatinine at {creatinine} mg/dL, "
                f"potassium normal ({potassium} mmol/L)",
                f"the BMP flagged glucose {glucose} and creatinine {creatinine} as high",
                f"labs from {K.date_words(r, y, m, d)}: glucose {glucose} mg/dL (H), "
                f"creatinine {creatinine} (H)",
            )
        )

    def c_referral(r: random.Random) -> str:
        return r.choice(
            (
                f"referral {referral} to {specialty} (P2) is pending review",
                f"{referral}, priority P2, is awaiting review by {specialty}",
                f"a P2 {specialty} referral was filed as {referral} and is under review",
            )
        )

    def c_appointment(r: random.Random) -> str:
        when = r.choice(
            (
                f"{booked_h - 12}:00 pm EDT",
                f"{booked_h}:00 (UTC-4)",
                f"{booked_h}:00 EDT",
            )
        )
        return r.choice(
            (
                f"{appointment} is confirmed with Dr. {doctor_first} {doctor_last} on "
                f"{d + 12} {month} at {when}",
                f"the visit is booked as {appointment} for {month[:3]}. {d + 12}, {when}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                f"the {taken} slot was fully booked, so {booked_h}:00 was taken instead",
                f"{taken} was already taken (409), so a later slot was booked",
                f"booking {taken} failed because the slot had gone",
            )
        )

    stranger = rng.choice(K.STRANGERS)
    return Story(
        domain="clinic",
        messages=messages,
        inner_count=4,
        clauses=[c_patient, c_labs, c_referral, c_appointment, c_error],
        error_clause=4,
        dropped="conflict:book_appointment",
        mutations=[
            (
                "wrong-level",
                lambda r: (2, f"referral {referral} to {specialty} was sent as P1"),
                (("contradicted", "P1"),),
            ),
            (
                "status-words",
                lambda r: (
                    2,
                    r.choice(
                        (
                            f"{specialty} has accepted referral {referral}",
                            f"referral {referral} was approved by {specialty}",
                        )
                    ),
                ),
                (("contradicted", "approved"),),
            ),
            (
                "other-value",
                lambda r: (3, f"{appointment} is confirmed for {d + 12} {month} at {taken}"),
                (("contradicted", f"{taken_h:02d}:30"),),
            ),
            (
                "wrong-status",
                lambda r: (3, f"{appointment} is still tentative"),
                (("contradicted", "held"),),
            ),
            (
                "invented-name",
                lambda r: (
                    -1,
                    f"the results were reviewed by Dr. {stranger[0]} {stranger[1]}",
                ),
                (("unsupported", f"{stranger[0]} {stranger[1]}"),),
            ),
            (
                "wrong-result",
                lambda r: (1, f"glucose was high at {glucose + 30} mg/dL"),
                (("unsupported", f"{glucose + 30} mg/dL"),),
            ),
        ],
        inner_clauses=[c_patient, c_labs],
        invented=f"REF-{rng.randint(30000, 39999)}",
        noise=[
            K.call("list_providers", {"specialty": specialty, "accepting": True}),
            K.result(
                "list_providers",
                K.table(
                    ("PROVIDER", "CLINIC", "NEXT OPENING"),
                    (
                        (f"Dr. {doctor_first} {doctor_last}", "Main St", K.iso(y, m, d + 12)),
                        ("Dr. Rao", "Harbor", K.iso(y, m + 1, 3)),
                    ),
                ),
            ),
        ],
        traps=[
            Trap("zone", lambda r: c_appointment(r)),
            Trap("ranges", lambda r: "the glucose reference range is 70–99 mg/dL"),
            Trap("date-end", lambda r: "the patient was born on 9 March 1987"),
            Trap("other-provider", lambda r: "Dr. Rao's next opening is a month later"),
        ],
        sections=Sections(
            request="Review the patient's new labs, refer them on and book a follow-up.",
            concepts=(
                "basic metabolic panel flags",
                "referral priorities P1-P4",
                "appointment slots and time zones",
            ),
            pending=(f"Wait for {specialty} to review {referral}.",),
            next_step="Send the patient the appointment details.",
        ),
    )
