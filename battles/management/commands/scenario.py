"""manage.py scenario --terrain forest [--settlement town] [--seed S] [--pdf FILE]: a stand-alone
scenario from the rulebook's Scenario Generator, for players who just want one."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand
from django.utils.safestring import mark_safe

from briternia.pdf import pdf_render
from kernel.dice import SeededDice, new_seed
from rulebook.scenario.deployment_svg import deployment_diagram
from rulebook.scenario.generator import ScenarioSetup, ScenarioSide, scenario_generate
from rulebook.scenario.sheet import scenario_lines
from rulebook.setup.maps import TERRAINS

SETTLEMENTS = ("none", "town", "city", "capitol", "ruins")


class Command(BaseCommand):
    help = "Roll a stand-alone scenario (Appendix: Scenario Generator) and print it, or write it as a PDF."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--terrain", choices=TERRAINS, default="plains")
        parser.add_argument("--settlement", choices=SETTLEMENTS, default="none")
        parser.add_argument("--both-moved", action="store_true", help="Both armies moved in: neither defends.")
        parser.add_argument("--fortified", action="store_true", help="The defender is fortified.")
        parser.add_argument("--attacker-supported", action="store_true")
        parser.add_argument("--defender-supported", action="store_true")
        parser.add_argument(
            "--tomb-raiders",
            action="store_true",
            help="A Tomb Raider match: Tomb Raider Scenario & Terrain (a 4x4 table).",
        )
        parser.add_argument("--seed", default="", help="The same seed gives the same scenario.")
        parser.add_argument("--pdf", default="", help="Also write the scenario sheet to this PDF file.")

    def handle(self, *args: Any, **o: Any) -> None:
        seed = o["seed"] or new_seed()
        setup = ScenarioSetup(
            terrain=o["terrain"],
            settlement=o["settlement"],
            attacker=ScenarioSide(name="Attacker", supported=o["attacker_supported"]),
            defender=ScenarioSide(name="Defender", supported=o["defender_supported"], fortified=o["fortified"]),
            defending=not o["both_moved"],
            skirmish=o["tomb_raiders"],
        )
        scenario = scenario_generate(setup, SeededDice(seed=seed, stream="scenario"))
        sections = scenario_lines(scenario)
        self.stdout.write(f"Scenario for a {o['terrain']} province ({o['settlement']}), seed {seed}\n")
        diagram = deployment_diagram(scenario)
        for section in sections:
            self.stdout.write(self.style.MIGRATE_HEADING(section.title))
            for paragraph in section.paragraphs:
                self.stdout.write(f"  {paragraph}")
            for line in diagram.lines if section.diagram else []:  # the Deployment Map in words
                self.stdout.write(f"  {line}")
        if o["pdf"]:
            deployment = {"title": diagram.title, "lines": diagram.lines, "svg": mark_safe(diagram.svg)}
            pdf = pdf_render(
                "battles/scenario_standalone_print.html",
                {"sections": sections, "seed": seed, "setup": setup, "deployment": deployment},
            )
            Path(o["pdf"]).write_bytes(pdf)
            self.stdout.write(self.style.SUCCESS(f"Scenario sheet written to {o['pdf']}"))
