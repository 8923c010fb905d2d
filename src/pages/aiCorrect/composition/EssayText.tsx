// The recognised essay text with the engine's sentence notes marked in it (typos and repeats
// filled red/orange, run-on sentences underlined, good idioms and figures of speech green/blue),
// and the numbered notes below. Used on the screen and on the printed feedback.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { EssayNote } from '../../../dataProvider/correct';
import { highlightRuns, NOTE_COLORS, NOTE_LABELS } from './highlight';

function runStyle(notes: EssayNote[]) {
  const runon = notes.find((n) => n.kind === 'runon');
  // A short note inside a run-on sentence keeps its fill; the sentence adds the underline.
  const fill = notes.find((n) => n.kind !== 'runon');
  return {
    ...(fill ? { backgroundColor: NOTE_COLORS[fill.kind], borderRadius: '2px' } : {}),
    ...(runon ? { textDecoration: 'underline wavy', textDecorationColor: NOTE_COLORS.runon, textUnderlineOffset: '4px' } : {}),
  };
}

export function EssayText({ text, sentences, notes }: { text: string; sentences: string[]; notes: EssayNote[] }) {
  const runs = highlightRuns(text, sentences, notes);
  return (
    <Box
      data-testid="essay-text"
      sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 2, fontSize: 16, border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, bgcolor: '#fffdf7' }}
    >
      {runs.map((r, i) =>
        r.notes.length ? (
          <Box
            component="mark"
            key={i}
            data-kind={r.notes.map((k) => notes[k]!.kind).join(' ')}
            title={r.notes.map((k) => notes[k]!.message).join('；')}
            sx={{ color: 'inherit', bgcolor: 'transparent', ...runStyle(r.notes.map((k) => notes[k]!)) }}
          >
            {r.text}
            {/* The number of each short note, once, after its words. */}
            {r.notes
              .filter((k) => notes[k]!.kind !== 'runon' && !runs[i + 1]?.notes.includes(k))
              .map((k) => (
                <Box component="sup" key={k} sx={{ fontSize: 10, color: 'text.secondary', ml: '1px' }}>
                  {k + 1}
                </Box>
              ))}
          </Box>
        ) : (
          <span key={i}>{r.text}</span>
        ),
      )}
    </Box>
  );
}

export function NoteList({ notes }: { notes: EssayNote[] }) {
  if (!notes.length) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="essay-notes-empty">
        暂无数据
      </Typography>
    );
  }
  return (
    <Box component="ol" aria-label="逐句批注" sx={{ m: 0, pl: 3, display: 'grid', gap: 0.5 }}>
      {notes.map((n, k) => (
        <Box component="li" key={k} data-testid="essay-note" data-kind={n.kind} sx={{ overflowWrap: 'anywhere' }}>
          <Box
            component="span"
            sx={{ px: 0.75, mr: 1, borderRadius: 1, fontSize: 12, whiteSpace: 'nowrap', ...(n.kind === 'runon' ? { border: `1px solid ${NOTE_COLORS.runon}`, color: NOTE_COLORS.runon } : { bgcolor: NOTE_COLORS[n.kind] }) }}
          >
            {NOTE_LABELS[n.kind]}
          </Box>
          <Typography component="span" variant="body2">
            {n.message}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
