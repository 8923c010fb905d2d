// What every route screen receives. A leaf: screens import it without importing the screen table.
import type { RouteDef } from '../domain/routes';

export interface ScreenProps {
  route: RouteDef;
}
