// The generic views, loaded with the first screen that needs them.
export { ResourceList, useReadOnly, representation } from './ResourceList';
export { ResourceCreate, ResourceEdit, FormDialog, formToRecord } from './ResourceForm';
export { ResourceShow, ShowDialog } from './ResourceShow';
export { ResourceScreen } from './ResourceScreen';
export { ScreenCard } from '../../ui/ScreenCard';
