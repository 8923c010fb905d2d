// A task's uploaded page as an object URL for an <img>, fetched with the teacher's session (the
// file view needs the token, so a plain src cannot load it); null for a PDF.
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';

export function useCorrectFileImage(fileId: number) {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: ['correctFileUrl', fileId],
    queryFn: async () => {
      const blob = await api.correctFile(fileId);
      return blob.type.startsWith('image/') ? URL.createObjectURL(blob) : null;
    },
    retry: false,
  });
}
