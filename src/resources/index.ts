// Every resource of the product. Adding one = a folder with its config (docs/adding-a-resource.md),
// a line here, and a route that names it (src/menu/routes.ts). The list is handed to the data
// provider and to the app; nothing registers itself on import.
import boardPartners from './boardPartners';
import classes from './classes';
import directSchools from './directSchools';
import grades from './grades';
import homeworks from './homeworks';
import jobs from './jobs';
import orders from './orders';
import schoolResources from './schoolResources';
import students from './students';
import subjects from './subjects';
import teachers from './teachers';
import workbooks from './workbooks';
import devices from './devices';
import deviceSchools from './deviceSchools';
import rooms from './rooms';
import auditLogs from './auditLogs';
import type { ResourceConfig } from './types';

export const RESOURCES: readonly ResourceConfig[] = [classes, grades, students, teachers, rooms, jobs, subjects, schoolResources, workbooks, homeworks, devices, deviceSchools, orders, boardPartners, directSchools, auditLogs];
