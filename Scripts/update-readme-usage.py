#!/usr/bin/env python3
"""Puts the usage block the command table makes (written to .build/readme-usage-block.md by
ArgumentParsingTests) into README.md in place of the current one.
    swift test --filter readmeShowsTheGeneratedUsage; Scripts/update-readme-usage.py"""
import os, sys
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
readme_path = os.path.join(root, "README.md")
block = open(os.path.join(root, ".build/readme-usage-block.md")).read().strip()
readme = open(readme_path).read()
start = readme.index("```\nsubweave package")
end = readme.index("```", start + 4) + 3
open(readme_path, "w").write(readme[:start] + block + readme[end:])
print("README.md usage block updated")
