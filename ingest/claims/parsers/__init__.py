"""Pure readers of vendor pages and claim text (no Django): HTML to text and tables, page metadata,
sentences, claims and their frames, page arithmetic and number accounting."""
