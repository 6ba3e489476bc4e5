"""Each cell's median over a results file's kept rounds, as perfrun reads the file
(perfrun export -format json; perfrun must be on the PATH). The medians over
processes themselves are perfrun's: perfrun export -format processes FILES."""
import json, subprocess
from math import nan


def medians(path):
    """{(cell, unit): (median, the rounds' relative sd)}, time in ns as perfrun writes it"""
    out = subprocess.run(['perfrun', 'export', '-format', 'json', path], check=True, capture_output=True).stdout
    cells = {}
    for r in json.loads(out)['rows']:
        unit, scale = r['unit'], 1
        if unit.startswith('sec/'):
            unit, scale = 'ns/' + unit[4:], 1e9
        cells[(r['name'], unit)] = ((r['median'] if r['median'] is not None else nan) * scale,
                                    r['cv'] if r['cv'] is not None else nan)
    return cells
