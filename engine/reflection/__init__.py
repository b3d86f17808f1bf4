"""Reflection on finished battles: five phases (detect → forensics → synthesis → validation → memory),
each a small pure module, orchestrated by the Reflection role in `inbox`."""
