"""A URDF file read into an element tree, each element with the line it starts on.

:mod:`xml.etree.ElementTree` keeps no line numbers, so the tree is built here
from the expat parser's events, and the line of each start tag is noted as it
is read: an error can then name where in the file the element it is about
lies. Without namespace processing a xacro file keeps its ``xacro:`` prefixes,
which tells it apart (:func:`refuse_xacro`).
"""

import os
import xml.etree.ElementTree as ET
from xml.parsers import expat

from ..errors import IKError


class Document:
    """A parsed URDF: its ``root`` element and ``lines``, the line of each element (by identity)."""

    __slots__ = ("root", "lines", "name")

    def __init__(self, root, lines, name):
        self.root = root
        self.lines = lines
        self.name = name

    def where(self, element):
        """``"<tag> (line n)"`` for an element of the document."""
        return f"<{element.tag}> (line {self.lines[element]})"


def read_source(source):
    """The bytes of a URDF given as XML text (``str`` starting with ``<``, or ``bytes``) or as the
    path of a file, and a name for it in messages."""
    if isinstance(source, bytes):
        return source, "the URDF text"
    if isinstance(source, str) and source.lstrip().startswith("<"):
        return source.encode("utf-8"), "the URDF text"
    if not isinstance(source, (str, os.PathLike)) or not str(source).strip():
        raise IKError(f"a URDF must be given as XML text or the path of a file, got {_short(source)}")
    try:
        with open(source, "rb") as file:
            return file.read(), f"URDF file {os.fspath(source)!r}"
    except (OSError, ValueError) as error:
        raise IKError(f"cannot read URDF file {_short(source)}: {error}") from None


def parse(source):
    """The :class:`Document` of ``source`` (see :func:`read_source`); an :class:`~ikcore.IKError`
    naming the line for text that is not well-formed XML, or whose root is not ``<robot>``."""
    data, name = read_source(source)
    builder = ET.TreeBuilder()
    lines = {}
    parser = expat.ParserCreate()

    def start(tag, attributes):
        lines[builder.start(tag, attributes)] = parser.CurrentLineNumber

    parser.StartElementHandler = start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    try:
        parser.Parse(data, True)
        root = builder.close()
    except expat.ExpatError as error:
        raise IKError(f"{name} is not well-formed XML: {expat.ErrorString(error.code)} at line {error.lineno}, "
                      f"column {error.offset + 1}") from None
    except (AssertionError, ValueError) as error:  # the builder, on an unbalanced tree
        raise IKError(f"{name} is not well-formed XML: {error}") from None
    document = Document(root, lines, name)
    refuse_xacro(document)
    if root.tag != "robot":
        raise IKError(f"{name}: the root element is {document.where(root)}, not <robot>: not a URDF")
    return document


def refuse_xacro(document):
    """An :class:`~ikcore.IKError` for a xacro file (an element or attribute of the xacro
    namespace, or a ``${...}`` expression): ikcore reads plain URDF only."""
    for element in document.root.iter():
        found = None
        if element.tag.startswith("xacro:"):
            found = document.where(element)
        else:
            for key, value in element.attrib.items():
                if key.startswith("xmlns:xacro") or key.startswith("xacro:") or "${" in value:
                    found = f"{document.where(element)} attribute {key}={value!r}"
                    break
        if found is not None:
            raise IKError(f"{document.name} is a xacro file ({found}): ikcore reads plain URDF only, xacro "
                          f"is not supported; expand it first (xacro robot.urdf.xacro > robot.urdf)")


def _short(value):
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
