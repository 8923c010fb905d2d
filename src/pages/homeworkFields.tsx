// Pieces 布置作业 and 作业详情 share: a question as previewed (stem and options), a time picked in the
// browser's zone, and the note to the students with its bound.
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import type { QuestionOption } from '../dataProvider/minerva';
import { HOMEWORK_NOTE_MAX } from '../domain/content';
import { Stem } from './Stem';

/** A question's stem and its options in one line below, as a list item of a preview. */
export function QuestionPreview({ stem, options }: { stem: string; options: QuestionOption[] | null }) {
  return (
    <>
      <Stem text={stem} />
      {options && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
          {options.map((o) => (
            <span key={o.key}>
              {o.key}. <Stem text={o.text} />
            </span>
          ))}
        </Box>
      )}
    </>
  );
}

/** A date and time in China time (see chinaInputValue) with its label always shown above. */
export function TimeField({ label, value, onChange, helperText, wide }: { label: string; value: string; onChange: (value: string) => void; helperText?: string; wide?: boolean }) {
  return (
    <TextField
      type="datetime-local"
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      helperText={helperText}
      sx={wide ? { width: { xs: '100%', sm: 280 } } : undefined}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}

/** The note to the students, counted against the server's bound. */
export function NoteField({ label, value, onChange, hint = '', placeholder, fullWidth, sx }: { label: string; value: string; onChange: (value: string) => void; hint?: string; placeholder?: string; fullWidth?: boolean; sx?: object }) {
  return (
    <TextField
      fullWidth={fullWidth}
      placeholder={placeholder}
      multiline
      minRows={2}
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      helperText={`${value.length}/${HOMEWORK_NOTE_MAX}${hint}`}
      slotProps={{ htmlInput: { maxLength: HOMEWORK_NOTE_MAX } }}
      sx={sx}
    />
  );
}
