/** A choice of the menus and suggestions: its label, and the text it sends. */
interface Chip {
  label: string;
  text: string;
}

interface ChipMenuProps {
  id?: string;
  className: string;
  label: string;
  chips: Chip[];
  onPick: (text: string) => void;
}

/** A list of chips, each sending its text when clicked: the welcome menu, the popup menu, the suggestions. */
export function ChipMenu({ id, className, label, chips, onPick }: ChipMenuProps) {
  return (
    <ul id={id} className={className} aria-label={label}>
      {chips.map((chip, index) => (
        <li key={index}>
          <button type="button" className="ob-chip" onClick={() => onPick(chip.text)}>
            {chip.label}
          </button>
        </li>
      ))}
    </ul>
  );
}
